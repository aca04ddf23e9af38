/**
 * The plugin iframe protocol (docs/plugins.md). Pure functions, so the trust rules are testable without a
 * browser.
 */

export interface PluginInfo {
  id: number;
  name: string;
  endpoint: string;
  dev: boolean;
  authSecret: string;
}

export type PluginRequest =
  | { event: 'dialog' | 'dialog_confirm'; id?: string | number; data: { title?: string; message: string } }
  | { event: 'toast'; data: { message: string; type?: 'info' | 'success' | 'warning' | 'error' } }
  | { event: 'set-property'; id?: string | number; data: { label: string; value: string } }
  | { event: 'loading'; data: boolean };

/** endpoint?auth_secret=… (an existing query is kept). */
export function pluginSrc(plugin: Pick<PluginInfo, 'endpoint' | 'authSecret'>): string {
  const url = new URL(plugin.endpoint);
  url.searchParams.set('auth_secret', plugin.authSecret);
  return url.toString();
}

export function pluginOrigin(endpoint: string): string {
  return new URL(endpoint).origin;
}

/**
 * A sandboxed frame without allow-same-origin runs in an opaque origin: the browser reports its messages
 * with origin "null" and delivers a message to it only with targetOrigin "*". So the frame's identity is
 * its window: a message counts only when it comes from that exact window, and its origin is either the
 * plugin's own (a browser without opaque sandboxing) or the opaque "null".
 */
export function isFromPlugin(event: { source: unknown; origin: string }, frameWindow: unknown, origin: string): boolean {
  if (!frameWindow || event.source !== frameWindow) return false;
  return event.origin === origin || event.origin === 'null';
}

const text = (v: unknown, max = 2000): v is string => typeof v === 'string' && v.length > 0 && v.length <= max;
const requestId = (v: unknown) => v === undefined || (typeof v === 'string' && v.length <= 100) || (typeof v === 'number' && Number.isFinite(v));

/** A plugin's message as one of the known requests, or undefined (anything else is ignored). */
export function parsePluginRequest(raw: unknown): PluginRequest | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const m = raw as { event?: unknown; id?: unknown; data?: unknown };
  const data = (m.data ?? {}) as Record<string, unknown>;
  switch (m.event) {
    case 'dialog':
    case 'dialog_confirm':
      if (!requestId(m.id) || !text(data.message) || (data.title !== undefined && !text(data.title, 200))) return undefined;
      return { event: m.event, id: m.id as string | number | undefined, data: { title: data.title as string | undefined, message: data.message } };
    case 'toast': {
      const type = data.type;
      if (!text(data.message, 500)) return undefined;
      if (type !== undefined && !['info', 'success', 'warning', 'error'].includes(type as string)) return undefined;
      return { event: 'toast', data: { message: data.message, type: type as 'info' | undefined } };
    }
    case 'set-property':
      if (!requestId(m.id) || !text(data.label, 120) || typeof data.value !== 'string' || data.value.length > 2000) return undefined;
      return { event: 'set-property', id: m.id as string | number | undefined, data: { label: data.label, value: data.value } };
    case 'loading':
      return { event: 'loading', data: Boolean(m.data) };
    default:
      return undefined;
  }
}
