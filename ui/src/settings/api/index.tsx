import { lazy } from 'react';
import { Route } from 'react-router';
import { RequireLevel } from '../../layout/RequireLevel';

const ApiTokenPage = lazy(() => import('./ApiTokenPage').then((m) => ({ default: m.ApiTokenPage })));

/** SPEC §2 Integrations: API /settings/api/:id? (level 6+, SPEC §6). */
export const apiTokenRoutes = [<Route key="api" path="api/:id?" element={<RequireLevel level={6}><ApiTokenPage /></RequireLevel>} />];
