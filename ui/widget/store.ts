/** The visitor's session for one widget, kept in the site's localStorage under its own key per identifier. */
export interface VisitorSession {
  visitorId: string;
  token: string;
}

const key = (identifier: string) => `balcao-widget:${identifier}`;

export function loadSession(identifier: string): VisitorSession | undefined {
  try {
    const raw = JSON.parse(localStorage.getItem(key(identifier)) ?? 'null') as Partial<VisitorSession> | null;
    if (raw && typeof raw.visitorId === 'string' && typeof raw.token === 'string') return { visitorId: raw.visitorId, token: raw.token };
  } catch {
    /* storage blocked or corrupt: a new session */
  }
  return undefined;
}

export function saveSession(identifier: string, session: VisitorSession): void {
  try {
    localStorage.setItem(key(identifier), JSON.stringify(session));
  } catch {
    /* storage blocked: the session lasts for this page only */
  }
}

export function clearSession(identifier: string): void {
  try {
    localStorage.removeItem(key(identifier));
  } catch {
    /* nothing stored */
  }
}
