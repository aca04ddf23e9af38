import type { LoginView } from '../../../../api/auth/presenters';
import type { TwoFactorChallengeView } from '../../../../api/auth/twoFactorViews';
import type { TwoFactorDisabledView, TwoFactorEnabledView, TwoFactorRequirementView, TwoFactorStatusView } from '../../../../api/twoFactor/presenters';
import type { TwoFactorRequirementReq } from '../../../../api/twoFactor/schema';
import { api } from '../../providers/httpClient';

export type TwoFactorChallenge = TwoFactorChallengeView['twoFactor'];
export type { TwoFactorEnabledView, TwoFactorRequirementView, TwoFactorStatusView };

/** What the setup screens show: the QR code's otpauth:// URI and the same secret for typing by hand. */
export interface SetupData {
  secret: string;
  otpauthUri: string;
}

/** The two-factor calls (docs/two-factor.md). Login-step calls carry the challenge token, never a session. */
export const twoFactorApi = {
  status: () => api<TwoFactorStatusView>('/operators/two-factor'),
  setup: () => api<SetupData>('/operators/two-factor/setup', { method: 'POST', body: {} }),
  enable: (code: string) => api<TwoFactorEnabledView>('/operators/two-factor/enable', { method: 'POST', body: { code } }),
  disable: (code: string) => api<TwoFactorDisabledView>('/operators/two-factor/disable', { method: 'POST', body: { code } }),
  newBackupCodes: (code: string) => api<{ backupCodes: string[] }>('/operators/two-factor/backup-codes', { method: 'POST', body: { code } }),
  loginCode: (challengeToken: string, code: string) => api<LoginView>('/operators/login/two-factor', { method: 'POST', body: { challengeToken, code }, auth: false }),
  loginSetup: (challengeToken: string) => api<SetupData>('/operators/login/two-factor/setup', { method: 'POST', body: { challengeToken }, auth: false }),
  loginEnable: (challengeToken: string, code: string) =>
    api<TwoFactorEnabledView>('/operators/login/two-factor/enable', { method: 'POST', body: { challengeToken, code }, auth: false }),
  requirement: () => api<TwoFactorRequirementView>('/workspace/two-factor'),
  setRequirement: (body: TwoFactorRequirementReq) => api<TwoFactorRequirementView>('/workspace/two-factor', { method: 'PUT', body }),
};

/**
 * A login waiting for its two-factor step, handed from the login (or invitation) page to /user/two-factor.
 * Kept in memory only, like pendingLogin.ts: a reload asks for the password again.
 */
let held: TwoFactorChallenge | undefined;

export function holdChallenge(challenge: TwoFactorChallenge): void {
  held = challenge;
}

export function heldChallenge(): TwoFactorChallenge | undefined {
  return held;
}

export function dropChallenge(): void {
  held = undefined;
}

/** Whether a login answer is the two-factor step rather than a session. */
export function isChallenge(data: LoginView | TwoFactorChallengeView): data is TwoFactorChallengeView {
  return 'twoFactor' in data;
}
