/**
 * The seam between billing and whoever takes the money (issue 29, docs/billing.md). Two implementations:
 * Asaas (`providers/asaas.ts`, when ASAAS_API_KEY is set) and the test mode (`providers/testMode.ts`, the
 * embedded default, labelled 'Modo de teste' wherever it is active). Money is integer centavos everywhere.
 */
export type PaymentMethod = 'pix' | 'boleto';

/** The payer, as the provider registers them. `document` is the CPF (11 digits) or CNPJ (14), digits only. */
export interface Payer {
  workspaceId: number;
  name: string;
  email: string;
  document: string;
}

export interface ChargeRequest {
  /** Our invoice's order number: the provider's `externalReference`. */
  orderNumber: string;
  /** Centavos, > 0. */
  amount: number;
  method: PaymentMethod;
  /** YYYY-MM-DD (America/Sao_Paulo). */
  dueDate: string;
  description: string;
  payer: Payer;
  /** The provider's customer id from an earlier charge for this workspace, when known. */
  providerCustomerId?: string | null;
}

export interface PixPayment {
  method: 'pix';
  /** The EMV BR Code, copy-and-paste ("Pix copia e cola"); its CRC is checked before it is shown. */
  brCode: string;
  /** PNG of the QR, base64 without the data: prefix. */
  qrPngBase64: string;
  /** ISO time after which the code is no longer accepted. */
  expiresAt: string;
}

export interface BoletoPayment {
  method: 'boleto';
  /** 47 digits (linha digitável), digits only. */
  digitableLine: string;
  /** 44 digits (código de barras), digits only. */
  barcode: string;
  /** YYYY-MM-DD. */
  dueDate: string;
  /** The provider's printable slip, when it has one (the test mode prints our own). */
  slipUrl: string | null;
}

export type PaymentData = PixPayment | BoletoPayment;

export type ChargeStatus = 'pending' | 'paid' | 'overdue' | 'refunded' | 'deleted';

export interface Charge {
  /** The provider's payment id (Asaas `pay_…`), unique: invoice_transactions.provider_reference. */
  providerReference: string;
  providerCustomerId: string;
  status: ChargeStatus;
  amount: number;
  payment: PaymentData;
}

export interface ChargeState {
  status: ChargeStatus;
  /** ISO, when paid. */
  paidAt: string | null;
  amount: number;
}

/** A provider's notification, normalised: what the webhook hands to billing. `eventId` deduplicates. */
export interface PaymentEvent {
  eventId: string;
  providerReference: string;
  status: ChargeStatus;
  paidAt: string | null;
}

export interface PaymentProvider {
  readonly name: 'asaas' | 'test';
  /** True for the test mode: every billing page says 'Modo de teste'. */
  readonly testMode: boolean;
  createCharge(request: ChargeRequest): Promise<Charge>;
  /** Asked by the subscription workflow before it expires anything (a lost webhook is recovered here). */
  getCharge(providerReference: string): Promise<ChargeState>;
  cancelCharge(providerReference: string): Promise<void>;
  /**
   * The test mode only ('Simular pagamento'): marks the charge paid and hands billing the PaymentEvent the
   * Asaas webhook would (through the same path, api/billing/webhookEvents.ts), so a simulated payment and a
   * real one change the same things. Repeating it changes nothing. Absent on a real provider.
   */
  simulatePayment?(providerReference: string): Promise<PaymentEvent>;
}
