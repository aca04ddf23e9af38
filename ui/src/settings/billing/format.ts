/** Money and dates of the billing screens: centavos as "R$ 1.234,56", days in São Paulo (docs/billing.md). */

const money = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });
const day = new Intl.DateTimeFormat('pt-BR', { dateStyle: 'short', timeZone: 'America/Sao_Paulo' });
const dayTime = new Intl.DateTimeFormat('pt-BR', { dateStyle: 'short', timeStyle: 'short', timeZone: 'America/Sao_Paulo' });

/** 43760 → "R$ 437,60" (with the non-breaking space Intl puts after R$). */
export function formatMoney(centavos: number): string {
  return money.format(centavos / 100);
}

function parse(value: string | null | undefined): Date | undefined {
  if (!value) return undefined;
  // A bare YYYY-MM-DD (a boleto's due date) is a calendar day: read it at noon UTC so no zone moves it.
  const d = new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T12:00:00Z` : value);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

/** "01/12/2026"; '' for a missing date. */
export function formatDay(value: string | null | undefined): string {
  const d = parse(value);
  return d ? day.format(d) : '';
}

/** "01/12/2026, 14:05"; '' for a missing date. */
export function formatDayTime(value: string | null | undefined): string {
  const d = parse(value);
  return d ? dayTime.format(d) : '';
}
