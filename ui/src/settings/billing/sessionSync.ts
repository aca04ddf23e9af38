import { getSession, updateWorkspace } from '../../providers/session';

/** The fields of a subscription the session keeps (api/auth/presenters.ts): enough for the expired-plan banner. */
interface SubscriptionLike {
  id: number;
  expiresAt: string;
  graceEndsAt?: string | null;
  license: string;
  status: string;
}

function isSubscriptionLike(value: unknown): value is SubscriptionLike {
  const v = value as Partial<SubscriptionLike> | null;
  return typeof v?.id === 'number' && typeof v.expiresAt === 'string' && typeof v.license === 'string' && typeof v.status === 'string';
}

/**
 * Puts the workspace's current subscription into the session, so the expired-plan banner and the composer
 * follow a payment at once: on `subscription.updated` {subscription} and after the billing pages reload it.
 */
export function syncSessionSubscription(value: unknown): void {
  const session = getSession();
  if (!session || !isSubscriptionLike(value)) return;
  const next = { id: value.id, expiresAt: new Date(value.expiresAt).toISOString(), graceEndsAt: value.graceEndsAt ? new Date(value.graceEndsAt).toISOString() : null, license: value.license, status: value.status };
  const current = session.workspace.subscription;
  if (current && JSON.stringify(current) === JSON.stringify(next)) return;
  // A reply read before a payment was applied must not undo the event that applied it: an older row, or the
  // same row with an earlier end, is stale.
  if (current && (next.id < current.id || (next.id === current.id && Date.parse(next.expiresAt) < Date.parse(current.expiresAt)))) return;
  updateWorkspace({ subscription: next });
}
