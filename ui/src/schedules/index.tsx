import { lazy } from 'react';
import { Route } from 'react-router';

const SchedulesPage = lazy(() => import('./SchedulesPage'));

/** Scheduled messages (docs/scheduled-messages.md): the workspace-wide list at /schedules, every level (each sees its own visibility). */
export const schedulesRoutes = [<Route key="schedules" path="/schedules" element={<SchedulesPage />} />];
