import { lazy } from 'react';
import { Route } from 'react-router';
import { RequireLevel } from '../../layout/RequireLevel';

const WebhookScreen = lazy(() => import('./WebhookScreen').then((m) => ({ default: m.WebhookScreen })));

/** SPEC §2 Integrations: Webhook /settings/webhook/:id? (one per workspace); level 6+ (SPEC §6). */
export const webhookRoutes = [<Route key="webhook" path="webhook/:id?" element={<RequireLevel level={6}><WebhookScreen /></RequireLevel>} />];
