import { lazy } from 'react';
import { Navigate, Route } from 'react-router';
import { texts } from '../i18n/ptBR';
import { ComingSoon } from '../layout/ComingSoon';

const OverviewPage = lazy(() => import('./OverviewPage'));
const TeamPage = lazy(() => import('./TeamPage'));
const ConversationsReportPage = lazy(() => import('./ConversationsReportPage'));

/**
 * SPEC §2 Reports: /reports redirects to /reports/overview. Overview, team and conversations are real
 * (docs/reports.md); conversations2, customers and tags still show the placeholder until their pages land.
 */
export const reportsRoutes = [
  <Route key="reports" path="/reports" element={<Navigate to="/reports/overview" replace />} />,
  <Route key="reports-overview" path="/reports/overview" element={<OverviewPage />} />,
  <Route key="reports-team" path="/reports/team" element={<TeamPage />} />,
  <Route key="reports-conversations" path="/reports/conversations" element={<ConversationsReportPage />} />,
  <Route key="reports-page" path="/reports/*" element={<ComingSoon title={texts.comingSoon.reports} />} />,
];
