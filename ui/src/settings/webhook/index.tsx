import { lazy } from 'react';
import { Route } from 'react-router';
import { RequireLevel } from '../../layout/RequireLevel';

const WebhookPage = lazy(() => import('./WebhookPage').then((m) => ({ default: m.WebhookPage })));

/** SPEC §2 Integrations: /settings/webhook/:id? (one webhook per workspace, so the id is ignored). Level 6+. */
export const webhookRoutes = [
  <Route key="webhook" path="webhook" element={<RequireLevel level={6}><WebhookPage /></RequireLevel>} />,
  <Route key="webhook-id" path="webhook/:id" element={<RequireLevel level={6}><WebhookPage /></RequireLevel>} />,
];
