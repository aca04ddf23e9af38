import type { AppDeps } from '../deps';
import type { Actor } from '../policy/policy';
import type { ChangePlanReq } from './schema';
import { placeOrder, type OrderResult } from './subscribe';

/**
 * POST /payment/{subscriptionId}/change (docs/billing.md "Changing plan"): an upgrade is an invoice for the
 * prorated difference, applied when paid; a downgrade (or annual → monthly) is scheduled for the period end and
 * charges nothing now. The subscription must be the workspace's current one (another workspace's is a 404).
 */
export function changePlan(deps: AppDeps, actor: Actor, subscriptionId: number, input: ChangePlanReq, now = new Date()): Promise<OrderResult> {
  return placeOrder(deps, actor, input, { subscriptionId }, now);
}
