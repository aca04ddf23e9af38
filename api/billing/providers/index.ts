import type { PaymentProvider } from '../provider';
import type { PaymentEventDeps } from '../paymentEvents';
import type { AppDeps } from '../../deps';
import { AsaasProvider } from './asaas';
import { TestModeProvider } from './testMode';
import { withValidation } from './validateCharge';

/** The api's deps, or an activity's: the test mode applies simulated payments itself (onPaymentEvent). */
export type PaymentProviderDeps = PaymentEventDeps & Pick<AppDeps, 'config'>;

/**
 * The payment provider of this installation (issue 29, docs/billing-providers.md): Asaas when ASAAS_API_KEY is set,
 * otherwise the embedded test mode ('Modo de teste'). Whichever it is, every charge it creates is checked
 * against the invoice before it is returned (validateCharge.ts). Cheap to build: call it where it is needed.
 */
export function paymentProvider(deps: PaymentProviderDeps): PaymentProvider {
  const { config } = deps;
  const provider: PaymentProvider = config.asaasApiKey
    ? new AsaasProvider({ apiUrl: config.asaasApiUrl, apiKey: config.asaasApiKey, userAgent: `Balcao (+${config.publicUrl})` })
    : new TestModeProvider(deps);
  return withValidation(provider, deps.logger);
}
