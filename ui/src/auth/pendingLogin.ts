import type { LoginData } from '../providers/session';

/**
 * A session already answered by the server but not stored yet: registration shows its "creating"
 * screen and invitation shows its success page first (SPEC §2). Kept in memory only, never in
 * history state, because it holds tokens.
 */
let pending: LoginData | undefined;

export function holdLogin(data: LoginData): void {
  pending = data;
}

export function takeHeldLogin(): LoginData | undefined {
  const data = pending;
  pending = undefined;
  return data;
}

export function peekHeldLogin(): LoginData | undefined {
  return pending;
}
