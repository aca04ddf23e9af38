import { api } from '../../../providers/httpClient';
import type { InstagramAccountView } from '../../../../../api/channels/instagram/schema';
import type { Channel } from '../channelsApi';

/** GET /integrations/meta/settings: whether the server has its Meta app, and what is missing (docs/channels/meta.md). */
export interface MetaSettings {
  configured: boolean;
  missing: string[];
  message: string | null;
  webhookUrl: string;
  oauthRedirectUri: string;
}

/** A page of the logged-in Facebook user, as the page chooser shows it (no tokens). */
export interface LoginPage {
  id: string;
  name: string;
  /** Our copy of the page's picture (`/api/avatars/…`; the CSP blocks Meta's CDN), or null: the letter shows. */
  picture: string | null;
  connected: boolean;
  instagram: { id: string; username: string | null } | null;
}

export type FacebookChannel = Channel & { pageId: string | null };
export type InstagramChannel = Channel & { pageId: string | null; instagramAccountId: string | null; username: string | null };

/** An Instagram account the power-up lists (GET /integrations/instagram/accounts), typed by the api. */
export type InstagramAccount = InstagramAccountView;

export const metaKey = ['settings', 'meta'] as const;

/** The Facebook and Instagram calls of the settings and power-up screens. */
export const metaApi = {
  settings: () => api<MetaSettings>('/integrations/meta/settings'),
  oauthUrl: (returnTo: string) => api<{ url: string }>(`/integrations/facebook/oauth?returnTo=${encodeURIComponent(returnTo)}`),
  loginPages: (session: string) => api<LoginPage[]>(`/integrations/facebook/pages?session=${encodeURIComponent(session)}`),
  connectPage: (session: string, pageId: string) => api<FacebookChannel>('/integrations/facebook', { method: 'POST', body: { session, pageId } }),
  pages: () => api<FacebookChannel[]>('/integrations/facebook'),
  page: (id: number) => api<FacebookChannel>(`/integrations/facebook/${id}`),
  deletePage: (id: number) => api<FacebookChannel>(`/integrations/facebook/${id}`, { method: 'DELETE' }),
  instagramAccounts: () => api<InstagramAccount[]>('/integrations/instagram/accounts'),
  connectInstagram: (instagramAccountId: string) => api<InstagramChannel>('/integrations/instagram', { method: 'POST', body: { instagramAccountId } }),
  instagram: (id: number) => api<InstagramChannel>(`/integrations/instagram/${id}`),
  deleteInstagram: (id: number) => api<InstagramChannel>(`/integrations/instagram/${id}`, { method: 'DELETE' }),
};
