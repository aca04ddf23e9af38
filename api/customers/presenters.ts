import type { CustomerDetails } from './queries';

/** Customer of docs/api/inbox.md (contact panel). */
export function presentCustomer(details: CustomerDetails) {
  const { customer } = details;
  return {
    id: customer.id,
    name: customer.name,
    phone: customer.phone,
    email: customer.email,
    avatar: customer.avatar,
    details: customer.details,
    createdAt: customer.createdAt,
    lastViewed: customer.lastViewed,
    sessionsCount: details.sessionsCount,
    properties: details.properties.map((p) => ({ id: p.id, label: p.label, code: p.code, value: p.value })),
    channels: details.channels.map((ch) => ({
      customerPlatformId: ch.customerPlatformId,
      platformId: ch.platformId,
      description: ch.channelDescription || ch.channelName,
      Call: ch.callId === null ? null : { id: ch.callId, protocol: ch.protocol, createdAt: ch.callCreatedAt, isFinished: ch.callIsFinished },
      pendingMerge: false,
    })),
    calls: details.calls.map((k) => ({
      id: k.id,
      customerPlatformId: k.customerPlatformId,
      operatorId: k.operatorId,
      protocol: k.protocol,
      createdAt: k.createdAt,
      finishedAt: k.finishedAt,
      isFinished: k.isFinished,
      csat: k.csatState ? { state: k.csatState, rating: k.csatRating } : null,
    })),
  };
}
export type CustomerView = ReturnType<typeof presentCustomer>;

export function presentCustomerSummary(row: { id: number; name: string | null; phone: string | null; email: string | null; avatar: string | null }) {
  return { id: row.id, name: row.name, phone: row.phone, email: row.email, avatar: row.avatar };
}
