import { Navigate, Route } from 'react-router';
import { texts } from '../i18n/ptBR';
import { ComingSoon } from '../layout/ComingSoon';

/** SPEC §2 Reports: /reports redirects to /reports/overview; the reports arrive in a later issue. */
export const reportsRoutes = [
  <Route key="reports" path="/reports" element={<Navigate to="/reports/overview" replace />} />,
  <Route key="reports-page" path="/reports/*" element={<ComingSoon title={texts.comingSoon.reports} />} />,
];
