/**
 * The plugin iframe protocol (docs/plugins.md). Pure functions, so the trust rules are testable without a
 * browser.
 */
import { pluginUrl } from '../../../../api/plugins/endpoint';

export interface PluginInfo {
  id: number;
  name: string;
  endpoint: string;
  dev: boolean;
  /** Answered to managers only (the settings screen); never sent to the frame. */
  authSecret?: string;
}

/** POST /api/plugin/:id/token: the short-lived token handed to the frame in the `auth` event. */
export interface PluginToken {
  token: string;
  expiresAt: string;
}

/** A fresh token is handed over this long before the current one expires (tokens live 5 minutes). */
export const TOKEN_REFRESH_MS = 4 * 60_000;

export type PluginRequest =
  | { event: 'dialog' | 'dialog_confirm'; id?: string | number; data: { title?: string; message: string } }
  | { event: 'toast'; data: { message: string; type?: 'info' | 'success' | 'warning' | 'error' } }
  | { event: 'set-property'; id?: string | number; data: { label: string; value: string } }
  | { event: 'loading'; data: boolean }
  | { event: 'auth'; id?: string | number };

/**
 * The frame's address: the endpoint as configured, nothing added. The plugin's credentials never travel
 * in the URL (history, server logs, Referer): a signed token comes by postMessage (`auth`).
 */
export function pluginSrc(plugin: Pick<PluginInfo, 'endpoint'>, appOrigin: string): string {
  return pluginUrl(plugin.endpoint, appOrigin).toString();
}

/** The endpoint's origin; a built-in page ('/plugins/…') is the app's own (`appOrigin`). */
export function pluginOrigin(endpoint: string, appOrigin: string): string {
  return pluginUrl(endpoint, appOrigin).origin;
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
    case 'auth':
      if (!requestId(m.id)) return undefined;
      return { event: 'auth', id: m.id as string | number | undefined };
    default:
      return undefined;
  }
}
