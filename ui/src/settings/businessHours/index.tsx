import { lazy } from 'react';
import { Route } from 'react-router';
import { RequireLevel } from '../../layout/RequireLevel';

const BusinessHoursScreen = lazy(() => import('./BusinessHoursScreen').then((m) => ({ default: m.BusinessHoursScreen })));

/** SPEC §2 Horário comercial: /settings/business-hours/:id? ('new' creates); level 6+ (SPEC §6). */
export const businessHoursRoutes = [<Route key="business-hours" path="business-hours/:id?" element={<RequireLevel level={6}><BusinessHoursScreen /></RequireLevel>} />];
