import type { LoginView } from '../auth/presenters';

/** The operator's own two-factor state (profile). */
export interface TwoFactorStatusView {
  enabled: boolean;
  enabledAt: string | null;
  backupCodesLeft: number;
  /** Workspaces the operator belongs to that require it (turning it off then ends the sessions). */
  requiredBy: { workspaceId: number; workspace: string }[];
}

/** Turning it off; `signedOut`: a workspace requires it, so every session ended (the next login sets it up again). */
export interface TwoFactorDisabledView extends TwoFactorStatusView {
  signedOut: boolean;
}

/** Turning it on answers the backup codes (shown once) and a fresh session (the others ended). */
export interface TwoFactorEnabledView {
  backupCodes: string[];
  session: LoginView;
}

/** The workspace's requirement and who still lacks it (settings, level 6+). */
export interface TwoFactorRequirementView {
  required: boolean;
  members: { id: number; name: string; email: string; accessLevel: number; enabled: boolean }[];
}
