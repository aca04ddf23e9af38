/**
 * The time-zone picker of 'Geral': Brazil's zones first, by the names people use for them, then every other
 * IANA zone the browser knows. The value stored is always the IANA name.
 */
export const BRAZIL_ZONES: readonly { zone: string; label: string }[] = [
  { zone: 'America/Sao_Paulo', label: 'Brasília (DF, SP, RJ, MG, Sul, GO, BA, Nordeste)' },
  { zone: 'America/Noronha', label: 'Fernando de Noronha' },
  { zone: 'America/Belem', label: 'Pará (leste) e Amapá' },
  { zone: 'America/Santarem', label: 'Pará (oeste)' },
  { zone: 'America/Fortaleza', label: 'Ceará, Maranhão, Piauí, Rio Grande do Norte, Paraíba' },
  { zone: 'America/Recife', label: 'Pernambuco' },
  { zone: 'America/Maceio', label: 'Alagoas e Sergipe' },
  { zone: 'America/Bahia', label: 'Bahia' },
  { zone: 'America/Araguaina', label: 'Tocantins' },
  { zone: 'America/Cuiaba', label: 'Mato Grosso' },
  { zone: 'America/Campo_Grande', label: 'Mato Grosso do Sul' },
  { zone: 'America/Manaus', label: 'Amazonas (Manaus)' },
  { zone: 'America/Porto_Velho', label: 'Rondônia' },
  { zone: 'America/Boa_Vista', label: 'Roraima' },
  { zone: 'America/Rio_Branco', label: 'Acre' },
  { zone: 'America/Eirunepe', label: 'Amazonas (oeste)' },
];

export interface ZoneChoices {
  brazil: { zone: string; label: string }[];
  others: string[];
}

/** Brazil's zones, then the rest of the browser's list; the current value is always among the choices. */
export function zoneChoices(current: string, all: readonly string[] = supportedZones()): ZoneChoices {
  const brazilian = new Set(BRAZIL_ZONES.map((z) => z.zone));
  const others = all.filter((zone) => !brazilian.has(zone));
  if (current && !brazilian.has(current) && !others.includes(current)) others.unshift(current);
  return { brazil: [...BRAZIL_ZONES], others };
}

function supportedZones(): string[] {
  return typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
}
