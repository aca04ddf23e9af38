/** SPEC §3 access levels. */
export const AccessLevel = {
  OWNER: 10,
  ADMIN: 9,
  MASTER: 6,
  OPERATOR: 3,
  OPERATOR_RESTRICT: 2,
} as const;
export type AccessLevelValue = (typeof AccessLevel)[keyof typeof AccessLevel];
export const ACCESS_LEVELS: readonly AccessLevelValue[] = [10, 9, 6, 3, 2];

export const ACCESS_LEVEL_LABELS: Record<AccessLevelValue, string> = {
  10: 'Proprietário',
  9: 'Administrador',
  6: 'Supervisor',
  3: 'Agente',
  2: 'Agente Restrito',
};

export function isAccessLevel(n: unknown): n is AccessLevelValue {
  return typeof n === 'number' && (ACCESS_LEVELS as readonly number[]).includes(n);
}
