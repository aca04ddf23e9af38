import { clearLocalData, getSession, storeSessionResponse, subscribeSession, type LoginData, type WorkspaceSession } from './session';
import { HttpError, request } from './httpClient';

/** Renew this long before the access token expires (tokens live 1 hour). */
const RENEW_AHEAD_MS = 5 * 60_000;
/** A call made this close to expiry waits for a fresh token first. */
const MIN_VALIDITY_MS = 60_000;

/** Expiry of a JWT in epoch ms, read from its payload (the signature is the server's business). */
export function tokenExpiry(token: string): number | undefined {
  const payload = token.split('.')[1];
  if (!payload) return undefined;
  try {
    const json = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { exp?: number };
    return typeof json.exp === 'number' ? json.exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

let inFlight: Promise<WorkspaceSession> | undefined;

/**
 * POST /operators/renew-token. With `workspaceId` it switches workspace. Single-flight, because the
 * renewal token rotates: two concurrent renewals would spend the same token twice.
 */
export function renewToken(workspaceId?: number): Promise<WorkspaceSession> {
  if (inFlight && workspaceId === undefined) return inFlight;
  const run = (async () => {
    const session = getSession();
    if (!session) throw new HttpError(401, []);
    const used = session.workspace.renewalToken;
    try {
      const res = await request('/api/operators/renew-token', {
        method: 'POST',
        auth: false,
        body: { renewalToken: used, ...(workspaceId !== undefined ? { workspaceId } : {}) },
      });
      return storeSessionResponse((res.json as { data: LoginData | WorkspaceSession }).data);
    } catch (err) {
      // Another tab renewed first and rotated the renewal token: its fresh session is ours too.
      const now = getSession();
      if (workspaceId === undefined && now && now.workspace.renewalToken !== used) return now.workspace;
      throw err;
    }
  })();
  if (workspaceId === undefined) {
    inFlight = run;
    void run.finally(() => {
      if (inFlight === run) inFlight = undefined;
    }).catch(() => undefined);
  }
  return run;
}

/** Before an authenticated call: renew first when the token is about to expire. */
export async function ensureFreshToken(): Promise<void> {
  const session = getSession();
  if (!session) return;
  const exp = tokenExpiry(session.workspace.token);
  if (exp === undefined || exp - Date.now() > MIN_VALIDITY_MS) return;
  try {
    await renewToken();
  } catch (err) {
    // A refused renewal token ends the session; a network failure lets the call try (and report) itself.
    if (err instanceof HttpError && (err.status === 401 || err.status === 400)) clearLocalData();
  }
}

/** Keeps the session's token fresh while the app is open; returns the stop function. */
export function startTokenRenewal(): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let retryDelay = 10_000;
  const schedule = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const session = getSession();
    if (!session) return;
    const exp = tokenExpiry(session.workspace.token);
    if (exp === undefined) return;
    // Jitter, so several open tabs do not all renew at the same instant.
    const wait = Math.max(exp - RENEW_AHEAD_MS - Date.now(), 0) + Math.floor(Math.random() * 20_000);
    timer = setTimeout(() => {
      const current = getSession();
      const currentExp = current ? tokenExpiry(current.workspace.token) : undefined;
      if (currentExp !== undefined && currentExp - Date.now() > RENEW_AHEAD_MS) return schedule();
      renewToken()
        .then(() => (retryDelay = 10_000))
        .catch((err: unknown) => {
          if (err instanceof HttpError && (err.status === 401 || err.status === 400)) {
            clearLocalData();
            return;
          }
          // Offline: try again a little later, the session is still usable until it expires.
          timer = setTimeout(schedule, retryDelay);
          retryDelay = Math.min(retryDelay * 2, 5 * 60_000);
        });
    }, Math.min(wait, 2 ** 31 - 1));
  };
  schedule();
  let lastToken = getSession()?.workspace.token;
  const unsubscribe = subscribeSession(() => {
    const token = getSession()?.workspace.token;
    if (token !== lastToken) {
      lastToken = token;
      schedule();
    }
  });
  return () => {
    unsubscribe();
    if (timer) clearTimeout(timer);
  };
}
