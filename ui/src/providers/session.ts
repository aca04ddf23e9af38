import { useSyncExternalStore } from 'react';
import type { LoginView, UserView, WorkspaceSessionView } from '../../../api/auth/presenters';

/** SPEC §3 User/session, workspace session and login answer, as api/auth/presenters.ts presents them. */
export type SessionUser = UserView;
export type WorkspaceSession = WorkspaceSessionView;
export type LoginData = LoginView;

export type Session = LoginData;

/** Every key of the local preferences (SPEC §3) starts with this prefix, so logout can clear them all. */
export const STORAGE_PREFIX = 'balcao.';
const USER_KEY = `${STORAGE_PREFIX}user`;
const WORKSPACE_KEY = `${STORAGE_PREFIX}workspace`;

type Listener = () => void;
const listeners = new Set<Listener>();
let cached: { raw: string; session: Session | null } | undefined;

function read(): Session | null {
  const rawUser = localStorage.getItem(USER_KEY);
  const rawWorkspace = localStorage.getItem(WORKSPACE_KEY);
  const raw = `${rawUser}\n${rawWorkspace}`;
  // useSyncExternalStore needs a stable snapshot: parse again only when the stored text changed.
  if (cached?.raw === raw) return cached.session;
  let session: Session | null = null;
  if (rawUser && rawWorkspace) {
    try {
      session = { user: JSON.parse(rawUser) as SessionUser, workspace: JSON.parse(rawWorkspace) as WorkspaceSession };
    } catch {
      session = null;
    }
  }
  cached = { raw, session };
  return session;
}

function emit(): void {
  for (const l of [...listeners]) l();
}

export function getSession(): Session | null {
  return read();
}

export function hasSession(): boolean {
  return read() !== null;
}

/** Login and signup: the user and the workspace they entered (SPEC §4 Session). */
export function saveLogin(data: LoginData): void {
  localStorage.setItem(USER_KEY, JSON.stringify(data.user));
  localStorage.setItem(WORKSPACE_KEY, JSON.stringify(data.workspace));
  emit();
}

/**
 * A fresh workspace session (token renewal, workspace switch, new workspace, password change).
 * Keeps the user's workspace list and access level in step with it.
 */
export function saveWorkspace(workspace: WorkspaceSession): void {
  const current = read();
  localStorage.setItem(WORKSPACE_KEY, JSON.stringify(workspace));
  if (current) {
    const known = current.user.workspaces.some((w) => w.workspaceId === workspace.workspaceId);
    const workspaces = known
      ? current.user.workspaces.map((w) =>
          w.workspaceId === workspace.workspaceId ? { ...w, workspace: workspace.workspace, avatar: workspace.avatar } : w,
        )
      : [...current.user.workspaces, { workspaceId: workspace.workspaceId, workspace: workspace.workspace, avatar: workspace.avatar }];
    localStorage.setItem(USER_KEY, JSON.stringify({ ...current.user, accessLevel: workspace.accessLevel, workspaces }));
  }
  emit();
}

export function updateUser(patch: Partial<SessionUser>): void {
  const current = read();
  if (!current) return;
  localStorage.setItem(USER_KEY, JSON.stringify({ ...current.user, ...patch }));
  emit();
}

export function updateWorkspace(patch: Partial<WorkspaceSession>): void {
  const current = read();
  if (!current) return;
  saveWorkspace({ ...current.workspace, ...patch });
}

/** Logout: clears all local data (session, tokens, preferences and react-admin's store). */
export function clearLocalData(): void {
  const doomed: string[] = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (key && (key.startsWith(STORAGE_PREFIX) || key.startsWith('RaStore'))) doomed.push(key);
  }
  for (const key of doomed) localStorage.removeItem(key);
  sessionStorage.clear();
  emit();
}

export function subscribeSession(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

// Another tab logging out, renewing or switching workspace changes this tab too.
window.addEventListener('storage', (event) => {
  if (event.key === null || event.key.startsWith(STORAGE_PREFIX)) emit();
});

export function useSession(): Session | null {
  return useSyncExternalStore(subscribeSession, read);
}

/**
 * Plan expired (SPEC §4 Subscription): the subscription says so (expired, or canceled and past its paid
 * period), or its end has passed — the grace end when an unpaid renewal has one, since the plan keeps working
 * through the grace (docs/billing.md), otherwise expiresAt.
 */
export function isPlanExpired(workspace: WorkspaceSession, now = Date.now()): boolean {
  const sub = workspace.subscription;
  if (!sub) return false;
  if (sub.status === 'expired' || sub.status === 'canceled') return true;
  const end = Date.parse(sub.graceEndsAt ?? sub.expiresAt);
  return Number.isFinite(end) && end < now;
}

/**
 * Calls that open a session answer either the login shape `{user, workspace}` or a bare workspace
 * session; both are stored.
 */
export function storeSessionResponse(data: LoginData | WorkspaceSession): WorkspaceSession {
  if ('user' in data && 'workspace' in data && typeof data.workspace === 'object') {
    saveLogin(data);
    return data.workspace;
  }
  const workspace = data as WorkspaceSession;
  saveWorkspace(workspace);
  return workspace;
}
