import { lazy, type ReactNode } from 'react';
import { Route } from 'react-router';
import { RequireLevel } from '../../layout/RequireLevel';

const BusinessHoursListPage = lazy(() => import('./BusinessHoursListPage').then((m) => ({ default: m.BusinessHoursListPage })));
const BusinessHoursPage = lazy(() => import('./BusinessHoursPage').then((m) => ({ default: m.BusinessHoursPage })));

/** SPEC §6: business hours are managed from level 6. */
const master = (page: ReactNode) => <RequireLevel level={6}>{page}</RequireLevel>;

/** SPEC §2 Horário comercial: /settings/business-hours/:id? ('new' creates). */
export const businessHoursRoutes = [
  <Route key="business-hours" path="business-hours" element={master(<BusinessHoursListPage />)} />,
  <Route key="business-hours-id" path="business-hours/:id" element={master(<BusinessHoursPage />)} />,
];
