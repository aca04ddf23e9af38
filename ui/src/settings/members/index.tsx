import { lazy } from 'react';
import { Route } from 'react-router';
import { RequireLevel } from '../../layout/RequireLevel';

const MembersScreen = lazy(() => import('./MembersScreen').then((m) => ({ default: m.MembersScreen })));

/** /settings/members/:id? — level 6+ (SPEC §6). */
export const membersRoutes = [<Route key="members" path="members/:id?" element={<RequireLevel level={6}><MembersScreen /></RequireLevel>} />];
