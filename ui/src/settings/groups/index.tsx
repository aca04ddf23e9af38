import { lazy } from 'react';
import { Route } from 'react-router';
import { RequireLevel } from '../../layout/RequireLevel';

const GroupsScreen = lazy(() => import('./GroupsScreen').then((m) => ({ default: m.GroupsScreen })));

/** /settings/groups/:id? — level 6+ (SPEC §6). */
export const groupsRoutes = [<Route key="groups" path="groups/:id?" element={<RequireLevel level={6}><GroupsScreen /></RequireLevel>} />];
