import { api } from '../providers/httpClient';

/** One device of the agent that receives Web Push (GET /api/push/subscriptions). */
export interface PushDevice {
  id: number;
  endpoint: string;
  label: string;
  createdAt: string;
}

/** What the profile's switch can show: no Push API, blocked by the user, or the current state. */
export type PushState = 'unsupported' | 'denied' | 'on' | 'off';

export function pushSupported(): boolean {
  return typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

/** The browser's subscription of this device, if the service worker holds one. */
async function browserSubscription(): Promise<PushSubscription | null> {
  if (!pushSupported()) return null;
  const registration = await navigator.serviceWorker.getRegistration('/');
  return (await registration?.pushManager.getSubscription()) ?? null;
}

export async function pushState(devices: PushDevice[] | undefined): Promise<PushState> {
  if (!pushSupported()) return 'unsupported';
  if (Notification.permission === 'denied') return 'denied';
  const sub = await browserSubscription();
  if (!sub || Notification.permission !== 'granted') return 'off';
  // Subscribed in the browser but not (any more) on the server (removed from another device): off.
  return devices && !devices.some((d) => d.endpoint === sub.endpoint) ? 'off' : 'on';
}

function applicationServerKey(base64url: string): Uint8Array<ArrayBuffer> {
  const raw = atob(base64url.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(base64url.length / 4) * 4, '='));
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

export const pushApi = {
  devices: () => api<PushDevice[]>('/push/subscriptions'),
  removeDevice: (id: number) => api<void>(`/push/subscriptions/${id}`, { method: 'DELETE' }),

  /** Asks for permission, subscribes the browser with the api's VAPID key and registers the device. */
  async enable(): Promise<PushState> {
    if (!pushSupported()) return 'unsupported';
    const permission = await Notification.requestPermission();
    if (permission !== 'granted') return permission === 'denied' ? 'denied' : 'off';
    const registration = await navigator.serviceWorker.register('/sw.js', { scope: '/' }).then(() => navigator.serviceWorker.ready);
    const { publicKey } = await api<{ publicKey: string }>('/push/public-key');
    let sub = await registration.pushManager.getSubscription();
    // A subscription made with another key (VAPID keys were replaced) cannot be reused.
    if (sub && sub.options.applicationServerKey) {
      const current = new Uint8Array(sub.options.applicationServerKey);
      const wanted = applicationServerKey(publicKey);
      if (current.length !== wanted.length || current.some((b, i) => b !== wanted[i])) {
        await sub.unsubscribe();
        sub = null;
      }
    }
    sub ??= await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: applicationServerKey(publicKey) });
    await api('/push/subscriptions', { method: 'POST', body: sub.toJSON() });
    return 'on';
  },

  /** Removes this device on the server and in the browser. */
  async disable(devices?: PushDevice[]): Promise<void> {
    const sub = await browserSubscription();
    if (!sub) return;
    const list = devices ?? (await pushApi.devices());
    const mine = list.find((d) => d.endpoint === sub.endpoint);
    if (mine) await pushApi.removeDevice(mine.id);
    await sub.unsubscribe().catch(() => undefined);
  },

  /** Logout: this device stops receiving the agent's notifications. Never blocks the logout for long. */
  async forgetThisDevice(): Promise<void> {
    await Promise.race([pushApi.disable().catch(() => undefined), new Promise((r) => setTimeout(r, 3000))]);
  },

  browserEndpoint: async () => (await browserSubscription())?.endpoint,
};
