import { useCallback, useEffect, useRef } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../providers/httpClient';
import { useSession } from '../providers/session';
import { useRealtimeEvent } from '../realtime/RealtimeProvider';
import { inboxKeys } from '../inbox/queryKeys';
import { themeVar } from '../theme/colors';
import type { Agent } from '../inbox/types';

/** What an agent chooses in the header (docs/assignment.md "Availability"); offline is being logged out. */
export type Availability = 'online' | 'ausente';
/** How the team sees someone: their availability while connected, else offline. */
export type PresenceState = Availability | 'offline';

export const presenceColor = (state: PresenceState): string => (state === 'online' ? themeVar('activePresence') : state === 'ausente' ? '#f59e0b' : '#9ca3af');

export function presenceOf(member: { isOnline?: boolean; availability?: Availability }): PresenceState {
  return member.isOnline ? (member.availability ?? 'online') : 'offline';
}

/** `member.availability` on ws/{id}/all. */
interface MemberAvailability {
  operatorId: number;
  availability: Availability;
  online: boolean;
}

const myKey = (workspaceId: number, operatorId: number) => ['availability', workspaceId, operatorId] as const;
const AWAY_KEY = (workspaceId: number) => ['availability', workspaceId, 'awayAfterMinutes'] as const;
/** Shared by the tabs of this browser: the last input in any of them, and whether 'ausente' was set by the idle timer. */
const LAST_ACTIVITY = 'balcao.lastActivity';
const autoKey = (workspaceId: number, operatorId: number) => `balcao.autoAway.${workspaceId}.${operatorId}`;

function readStorage(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}
function writeStorage(key: string, value: string | null): void {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // Private mode without storage: the idle timer still works within this tab.
  }
}

/** The caller's availability in the current workspace, kept live by `member.availability`. */
export function useMyAvailability() {
  const session = useSession();
  const workspaceId = session?.workspace.workspaceId ?? 0;
  const operatorId = session?.user.id ?? 0;
  const qc = useQueryClient();
  const query = useQuery({
    queryKey: myKey(workspaceId, operatorId),
    queryFn: async ({ signal }) => (await api<{ availability?: Availability }>(`/operator/${operatorId}`, { signal })).availability ?? 'online',
    enabled: operatorId > 0,
    staleTime: 60_000,
  });
  const mutation = useMutation({
    mutationFn: (availability: Availability) => api<{ availability: Availability }>('/operators/availability', { method: 'PUT', body: { availability } }),
    onSuccess: (data) => qc.setQueryData(myKey(workspaceId, operatorId), data.availability),
  });
  const set = useCallback((availability: Availability, auto = false) => {
    writeStorage(autoKey(workspaceId, operatorId), auto && availability === 'ausente' ? '1' : null);
    return mutation.mutateAsync(availability);
  }, [mutation, workspaceId, operatorId]);
  return { availability: query.data, set, pending: mutation.isPending, workspaceId, operatorId };
}

/**
 * Applies `member.availability` to what is on screen: the caller's own state, the inbox's agent menus and
 * the settings members list.
 */
export function useAvailabilityLive(): void {
  const session = useSession();
  const qc = useQueryClient();
  const workspaceId = session?.workspace.workspaceId ?? 0;
  const me = session?.user.id ?? 0;
  useRealtimeEvent((event) => {
    if (event.event === 'WorkspaceActivation') void qc.invalidateQueries({ queryKey: AWAY_KEY(workspaceId) });
    if (event.event !== 'member.availability') return;
    const data = event.data as MemberAvailability;
    if (data.operatorId === me) qc.setQueryData(myKey(workspaceId, me), data.availability);
    qc.setQueryData<Agent[]>(inboxKeys.agents(), (agents) =>
      agents?.map((a) => (a.id === data.operatorId ? { ...a, availability: data.availability, isOnline: data.online } : a)),
    );
    void qc.invalidateQueries({ queryKey: ['settings', '/operator', 'list'] });
  });
}

/**
 * The workspace's idle time (Configurações › Geral): with no input in any tab of this browser for that
 * long (a hidden tab gets none), the agent becomes 'ausente'; the first input after that sets 'online'
 * again, only if it was this timer that set 'ausente'.
 */
export function useIdleAway(): void {
  const { availability, set, workspaceId, operatorId } = useMyAvailability();
  const { data: minutes } = useQuery({
    queryKey: AWAY_KEY(workspaceId),
    queryFn: async ({ signal }) => (await api<{ awayAfterMinutes?: number | null }>('/workspace', { signal })).awayAfterMinutes ?? null,
    enabled: workspaceId > 0,
    staleTime: 5 * 60_000,
  });
  const state = useRef({ availability, set, busy: false });
  state.current.availability = availability;
  state.current.set = set;

  useEffect(() => {
    if (!minutes || !operatorId) return;
    const limitMs = minutes * 60_000;
    let lastLocal = Date.now();
    writeStorage(LAST_ACTIVITY, String(lastLocal));
    const change = (to: Availability, auto: boolean) => {
      const s = state.current;
      if (s.busy) return;
      s.busy = true;
      s.set(to, auto).catch(() => undefined).finally(() => (s.busy = false));
    };
    const onActivity = () => {
      const now = Date.now();
      // Written at most every few seconds: a mouse move fires many events.
      if (now - lastLocal > 5_000) writeStorage(LAST_ACTIVITY, String(now));
      lastLocal = now;
      if (state.current.availability === 'ausente' && readStorage(autoKey(workspaceId, operatorId)) === '1') change('online', false);
    };
    const check = () => {
      const shared = Number(readStorage(LAST_ACTIVITY)) || 0;
      const last = Math.max(lastLocal, shared);
      if (state.current.availability === 'online' && Date.now() - last >= limitMs) change('ausente', true);
    };
    const events = ['pointerdown', 'pointermove', 'keydown', 'wheel', 'touchstart', 'scroll'] as const;
    for (const e of events) window.addEventListener(e, onActivity, { passive: true, capture: true });
    const onVisible = () => {
      if (document.visibilityState === 'visible') onActivity();
    };
    document.addEventListener('visibilitychange', onVisible);
    const timer = window.setInterval(check, Math.min(15_000, limitMs / 4));
    return () => {
      for (const e of events) window.removeEventListener(e, onActivity, { capture: true });
      document.removeEventListener('visibilitychange', onVisible);
      window.clearInterval(timer);
    };
  }, [minutes, workspaceId, operatorId]);
}
