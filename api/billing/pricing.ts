import { errors, type FieldError } from '../http/errors';
import type { License, SubscriptionStatus } from '../models/Subscription';
import type { CouponBilling } from '../models/Coupon';
import {
  ANNUAL_MONTHS,
  EXTRA_PRICES,
  MAX_UNITS,
  UNIT_KEYS,
  extrasOf,
  isPurchasable,
  periodPrice,
  planOf,
  unitsOfSubscription,
  type BillingMonths,
  type Plan,
  type PlanUnits,
} from './plans';
import { percentOf, periodDays, prorate, unusedCredit, type DateLike, type PeriodDays } from './proration';

/**
 * The price of a subscription or of a change to one (docs/billing.md): plan + extras − coupon − credit of
 * unused time, in integer centavos, never negative. Pure: the subscribe and change endpoints load what it
 * needs (the current subscription, what it paid, the usage, a verified coupon) and call it.
 */

/** A coupon already verified for this workspace (coupons.ts verifyCoupon). */
export interface QuoteCoupon {
  code: string;
  percent: number;
  billing: CouponBilling;
}

/** The subscription in force and the money it brought, when the workspace changes plan. */
export interface CurrentSubscription {
  subscription: {
    license: License;
    agents: number;
    numbers: number;
    instagramUnits: number;
    campaignUnits: number;
    months: number;
    status?: SubscriptionStatus;
  };
  /** Centavos paid for the current period (0 for a trial). */
  paidAmount: number;
  periodStart: DateLike;
  periodEnd: DateLike;
}

/** What the workspace uses now (limits.ts loadUsage): a subscription cannot go below it. */
export interface Usage {
  agents: number;
  whatsapp: number;
  instagram: number;
}

export interface QuoteInput extends PlanUnits {
  license: string;
  months: number;
  coupon?: QuoteCoupon | null;
  current?: CurrentSubscription | null;
  usage?: Usage | null;
  today: DateLike;
}

export type QuoteItemKind = 'plan' | keyof PlanUnits;

export interface QuoteItem {
  kind: QuoteItemKind;
  description: string;
  quantity: number;
  /** Centavos per unit per month. */
  unitPrice: number;
  /** Centavos charged for this line: quantity × unitPrice × months, prorated for an upgrade. */
  amount: number;
}

/**
 * new: a first subscription, or one after a trial, an expiry or a custom plan, or monthly → annual: a new
 * period starts when it is paid. upgrade: dearer, same billing: the rest of the current period is charged
 * now and the period end stays. downgrade: cheaper or annual → monthly: takes effect at the period end.
 */
export type ChangeKind = 'new' | 'upgrade' | 'downgrade';

export interface Quote {
  license: Plan['license'];
  months: BillingMonths;
  units: PlanUnits;
  kind: ChangeKind;
  effective: 'now' | 'period_end';
  items: QuoteItem[];
  subtotal: number;
  discount: number;
  /** Credit of unused time actually used (at most subtotal − discount, so total never goes below 0). */
  credit: number;
  total: number;
  /** The list price of each full period from now on, before any coupon (what a renewal charges). */
  periodPrice: number;
  /** The days behind a prorated upgrade; null when nothing is prorated. */
  proration: PeriodDays | null;
}

/** '1 agente', '5 agentes': the count with the word in the right number. */
export const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The pt-BR texts of the quote's refusals (listed in docs/billing.md). */
export const QUOTE_MESSAGES = {
  license: 'Escolha um plano: Basic, Business ou Enterprise. Para um plano personalizado, fale com o suporte.',
  months: 'Escolha a cobrança mensal ou anual (12 meses).',
  units: `Informe um número inteiro de 0 a ${MAX_UNITS}.`,
  unchanged: 'Esta já é a sua assinatura: mude o plano, a cobrança ou a quantidade de algum item.',
  belowIncluded: {
    agents: (plan: Plan, n: number) => `O plano ${plan.name} inclui ${plural(n, 'agente', 'agentes')}: o total de agentes não pode ser menor que ${n}.`,
    whatsapp: (plan: Plan, n: number) => `O plano ${plan.name} inclui ${plural(n, 'linha', 'linhas')} de WhatsApp: o total de linhas não pode ser menor que ${n}.`,
    campaign: (plan: Plan, n: number) => `O plano ${plan.name} inclui ${plural(n, 'campanha paralela', 'campanhas paralelas')}: o total de campanhas não pode ser menor que ${n}.`,
    instagram: (plan: Plan, n: number) => `O plano ${plan.name} inclui ${plural(n, 'unidade', 'unidades')} de Instagram: o total não pode ser menor que ${n}.`,
  },
  belowUsage: {
    agents: (n: number) => `Seu workspace tem ${plural(n, 'agente ativo', 'agentes ativos')}: o total de agentes não pode ser menor que ${n}. Desative agentes antes de diminuir.`,
    whatsapp: (n: number) => `Seu workspace tem ${plural(n, 'linha', 'linhas')} de WhatsApp: o total de linhas não pode ser menor que ${n}. Exclua linhas antes de diminuir.`,
    instagram: (n: number) => `Seu workspace tem ${plural(n, 'canal', 'canais')} de Instagram: o total de Instagram não pode ser menor que ${n}. Exclua canais antes de diminuir.`,
  },
  couponBilling: {
    monthly: 'Este cupom vale apenas para a cobrança mensal.',
    annual: 'Este cupom vale apenas para a cobrança anual.',
  },
} as const;

function isMonths(months: number): months is BillingMonths {
  return months === 1 || months === ANNUAL_MONTHS;
}

/** Every refusal of the input at once, keyed by the subscribe call's field names; [] when it can be priced. */
export function validateQuote(input: QuoteInput): FieldError[] {
  const fields: FieldError[] = [];
  const fail = (key: string, description: string) => fields.push({ key, descriptions: [description] });
  const plan = isPurchasable(input.license) ? planOf(input.license) : undefined;
  if (!plan) fail('license', QUOTE_MESSAGES.license);
  if (!isMonths(input.months)) fail('months', QUOTE_MESSAGES.months);
  for (const key of UNIT_KEYS) {
    const n = input[key];
    if (!Number.isInteger(n) || n < 0 || n > MAX_UNITS) {
      fail(key, QUOTE_MESSAGES.units);
      continue;
    }
    if (plan && n < plan.included[key]) {
      fail(key, QUOTE_MESSAGES.belowIncluded[key](plan, plan.included[key]));
      continue;
    }
    if (key === 'campaign' || !input.usage) continue;
    const used = input.usage[key];
    if (n < used) fail(key, QUOTE_MESSAGES.belowUsage[key](used));
  }
  const coupon = input.coupon;
  if (coupon && isMonths(input.months) && coupon.billing !== 'any') {
    const wanted: CouponBilling = input.months === ANNUAL_MONTHS ? 'annual' : 'monthly';
    if (coupon.billing !== wanted) fail('coupon', QUOTE_MESSAGES.couponBilling[coupon.billing]);
  }
  if (!fields.length && input.current && sameSubscription(input.current.subscription, input)) fail('license', QUOTE_MESSAGES.unchanged);
  return fields;
}

function sameSubscription(sub: CurrentSubscription['subscription'], input: QuoteInput): boolean {
  if (sub.license !== input.license || sub.months !== input.months) return false;
  const units = unitsOfSubscription(sub);
  return UNIT_KEYS.every((k) => units[k] === input[k]);
}

function itemsOf(plan: Plan, units: PlanUnits, months: BillingMonths): QuoteItem[] {
  const extras = extrasOf(plan, units);
  const items: QuoteItem[] = [
    { kind: 'plan', description: `Plano ${plan.name} (${months === ANNUAL_MONTHS ? 'anual' : 'mensal'})`, quantity: 1, unitPrice: plan.monthlyPrice, amount: plan.monthlyPrice * months },
  ];
  const descriptions: Record<keyof PlanUnits, (n: number) => string> = {
    agents: (n) => plural(n, 'agente adicional', 'agentes adicionais'),
    whatsapp: (n) => `${plural(n, 'linha', 'linhas')} de WhatsApp ${n === 1 ? 'adicional' : 'adicionais'}`,
    campaign: (n) => plural(n, 'campanha paralela adicional', 'campanhas paralelas adicionais'),
    instagram: (n) => `Instagram: ${plural(n, 'unidade', 'unidades')} (sem custo)`,
  };
  for (const kind of ['agents', 'whatsapp', 'campaign', 'instagram'] as const) {
    const n = extras[kind];
    if (n > 0) items.push({ kind, description: descriptions[kind](n), quantity: n, unitPrice: EXTRA_PRICES[kind], amount: n * EXTRA_PRICES[kind] * months });
  }
  return items;
}

/** Paid time is left: not expired (a canceled plan runs to its period end) and today is before the period end. */
function inForce(current: CurrentSubscription, today: DateLike): boolean {
  return current.subscription.status !== 'expired' && periodDays({ ...current, today }).remainingDays > 0;
}

/** A change from `current` to the wanted plan: new period, prorated upgrade, or downgrade at period end. */
function changeKind(current: CurrentSubscription | null | undefined, plan: Plan, units: PlanUnits, months: BillingMonths, today: DateLike): ChangeKind {
  if (!current || !inForce(current, today)) return 'new';
  const sub = current.subscription;
  const currentPlan = planOf(sub.license);
  // A trial was not paid for and a custom plan has no list price: what follows is a new period.
  if (!currentPlan || sub.license === 'trial' || !isMonths(sub.months)) return 'new';
  if (sub.months !== months) return months === ANNUAL_MONTHS ? 'new' : 'downgrade';
  const currentUnits = unitsOfSubscription(sub);
  const before = periodPrice(currentPlan, currentUnits, months);
  const after = periodPrice(plan, units, months);
  if (after !== before) return after > before ? 'upgrade' : 'downgrade';
  // Same price (Instagram is free): taking nothing away needs no wait; taking something away waits.
  return UNIT_KEYS.some((k) => units[k] < currentUnits[k]) ? 'downgrade' : 'upgrade';
}

/**
 * Prices a subscription (or a change to one) as asked. The totals asked are totals: the plan's included
 * units are counted in them. Throws the ValidationError of validateQuote when the input cannot be priced.
 */
export function quote(input: QuoteInput): Quote {
  const fields = validateQuote(input);
  if (fields.length) throw errors.validation(fields);
  const plan = planOf(input.license) as Plan;
  const months = input.months as BillingMonths;
  const units: PlanUnits = { agents: input.agents, whatsapp: input.whatsapp, instagram: input.instagram, campaign: input.campaign };
  const kind = changeKind(input.current, plan, units, months, input.today);
  const full = itemsOf(plan, units, months);

  let items = full;
  let proration: PeriodDays | null = null;
  let unused = 0;
  if (kind === 'upgrade' && input.current) {
    // The rest of the current period, at the new price, line by line (so the lines add up to the subtotal).
    proration = periodDays({ ...input.current, today: input.today });
    const { remainingDays, periodDays: whole } = proration;
    items = full.map((item) => ({ ...item, amount: prorate(item.amount, remainingDays, whole) }));
    unused = unusedCredit({ ...input.current, today: input.today });
  } else if (kind === 'new' && input.current && inForce(input.current, input.today)) {
    // Unused paid time of what is replaced now (0 for a trial: nothing was paid).
    unused = unusedCredit({ ...input.current, today: input.today });
  }

  const subtotal = items.reduce((sum, item) => sum + item.amount, 0);
  const discount = input.coupon ? percentOf(subtotal, input.coupon.percent) : 0;
  const credit = Math.min(unused, subtotal - discount);
  return {
    license: plan.license,
    months,
    units,
    kind,
    effective: kind === 'downgrade' ? 'period_end' : 'now',
    items,
    subtotal,
    discount,
    credit,
    total: subtotal - discount - credit,
    periodPrice: periodPrice(plan, units, months),
    proration,
  };
}
