import type { ChangePasswordReq } from '../../../../api/auth/schema';
import type { WorkspaceCreateReq, WorkspaceUpdateReq } from '../../../../api/workspaces/schema';
import { api } from '../../providers/httpClient';
import type { LoginData, SessionUser, WorkspaceSession } from '../../providers/session';

export interface WorkspaceDetails {
  id?: number;
  workspaceId?: number;
  name: string;
  avatar: string | null;
  timeZone?: string;
  /** An agent's reply that ends a bot also takes an unassigned conversation (docs/bots.md). */
  assignOnManualReply?: boolean;
  /** Idle minutes before an agent turns 'ausente' (null = never). */
  awayAfterMinutes?: number | null;
}

/** Account and workspace calls of SPEC §7 used by the settings pages and the user menu. */
export const accountApi = {
  profile: () => api<SessionUser>('/operators/profile'),
  updateProfile: (body: { name: string; phone: string | null }) => api<Partial<SessionUser> | undefined>('/session', { method: 'PUT', body }),
  changePassword: (body: ChangePasswordReq) => api<LoginData | WorkspaceSession>('/operators/change-password', { method: 'POST', body }),
  getWorkspace: () => api<WorkspaceDetails>('/workspace'),
  updateWorkspace: (body: WorkspaceUpdateReq) => api<WorkspaceDetails | undefined>('/workspace', { method: 'PUT', body }),
  createWorkspace: (body: WorkspaceCreateReq) => api<LoginData | WorkspaceSession>('/workspace', { method: 'POST', body }),
};
