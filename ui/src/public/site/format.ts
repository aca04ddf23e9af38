const BRL = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL', minimumFractionDigits: 0, maximumFractionDigits: 2 });

/** 149_00 → "R$ 149", 1788_00 → "R$ 1.788" (api/billing/plans.ts counts centavos). */
export function brl(centavos: number): string {
  return BRL.format(centavos / 100);
}
