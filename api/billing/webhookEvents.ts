import type { PaymentProvider, PaymentEvent } from './provider';
import { onPaymentEvent, type PaymentEventDeps, type PaymentEventOutcome } from './paymentEvents';
import { afterPaymentEvent } from './afterPayment';

/**
 * The path every payment notification takes into billing, whoever sent it (the Asaas webhook after its answer,
 * the sweep retrying it, the test mode's simulation): one transaction records the event in `payment_events`
 * (unique per provider and event id) and applies it through onPaymentEvent. A repeated event finds its row and
 * changes nothing; concurrent deliveries of one event wait on that row, so only one applies it; a failure rolls
 * both back, so the next delivery (or the sweep) applies it again. After the commit, afterPayment.ts announces a
 * paid invoice and wakes the subscription's lifecycle.
 */
export interface ReceivedPaymentEvent {
  provider: PaymentProvider['name'];
  /** The provider's name for it (Asaas `PAYMENT_RECEIVED`; the test mode's `PAYMENT_SIMULATED`). */
  type: string;
  event: PaymentEvent;
}

export type AcceptedPaymentEvent = { duplicate: true } | { duplicate: false; outcome: PaymentEventOutcome };

export async function acceptPaymentEvent(deps: PaymentEventDeps, received: ReceivedPaymentEvent): Promise<AcceptedPaymentEvent> {
  const { event } = received;
  const accepted = await deps.knex.transaction(async (trx): Promise<AcceptedPaymentEvent> => {
    const inserted: unknown[] = await trx('payment_events')
      .insert({
        provider: received.provider,
        eventId: event.eventId,
        event: received.type.slice(0, 60),
        providerReference: event.providerReference,
        status: event.status,
        paidAt: event.paidAt,
      })
      .onConflict(['provider', 'event_id'])
      .ignore()
      .returning('id');
    if (!inserted.length) return { duplicate: true } as const;
    return { duplicate: false, outcome: await onPaymentEvent({ ...deps, knex: trx }, event) } as const;
  });
  await afterPaymentEvent(deps, event, accepted);
  return accepted;
}
