import { lazy } from 'react';
import { Navigate, Route } from 'react-router';
import { shellTexts as texts } from '../i18n/shellTexts';
import { ComingSoon } from '../layout/ComingSoon';

const OverviewPage = lazy(() => import('./OverviewPage'));
const TeamPage = lazy(() => import('./TeamPage'));
const ConversationsReportPage = lazy(() => import('./ConversationsReportPage'));
const Conversations2Page = lazy(() => import('./Conversations2Page'));
const CustomersReportPage = lazy(() => import('./CustomersReportPage'));
const TagsReportPage = lazy(() => import('./TagsReportPage'));
const CsatReportPage = lazy(() => import('./CsatReportPage'));

/** SPEC §2 Reports (docs/reports.md): /reports redirects to /reports/overview; every page lazy-loaded with its charts. */
export const reportsRoutes = [
  <Route key="reports" path="/reports" element={<Navigate to="/reports/overview" replace />} />,
  <Route key="reports-overview" path="/reports/overview" element={<OverviewPage />} />,
  <Route key="reports-team" path="/reports/team" element={<TeamPage />} />,
  <Route key="reports-conversations" path="/reports/conversations" element={<ConversationsReportPage />} />,
  <Route key="reports-conversations2" path="/reports/conversations2" element={<Conversations2Page />} />,
  <Route key="reports-customers" path="/reports/customers" element={<CustomersReportPage />} />,
  <Route key="reports-tags" path="/reports/tags" element={<TagsReportPage />} />,
  <Route key="reports-csat" path="/reports/csat" element={<CsatReportPage />} />,
  <Route key="reports-page" path="/reports/*" element={<ComingSoon title={texts.comingSoon.reports} />} />,
];
