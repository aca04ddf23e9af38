import type {
  CompleteRegisterReq,
  ForgotPasswordReq,
  JoinWorkspaceReq,
  LoginReq,
  ResetPasswordReq,
  SignupReq,
} from '../../../api/auth/schema';
import { api } from '../providers/httpClient';
import type { LoginData, SessionUser } from '../providers/session';
import type { TwoFactorChallengeView } from '../../../api/auth/twoFactorViews';

/** The account calls of SPEC §7 used by the /user pages. */
export const authApi = {
  /** A session, or the two-factor step first (docs/two-factor.md). */
  login: (body: LoginReq) => api<LoginData | TwoFactorChallengeView>('/operators/login', { method: 'POST', body, auth: false }),
  signup: (body: SignupReq) => api<LoginData>('/signup', { method: 'POST', body, auth: false }),
  forgotPassword: (body: ForgotPasswordReq) => api<unknown>('/operators/forgot-password', { method: 'POST', body, auth: false }),
  resetPassword: (body: ResetPasswordReq) => api<unknown>('/operators/reset-password', { method: 'POST', body, auth: false }),
  confirmEmail: (token: string) => api<{ verificationLevel: number }>('/operators/confirm-email', { method: 'POST', body: { token } }),
  resendEmail: () => api<unknown>('/operators/resend-email'),
  profile: () => api<SessionUser>('/operators/profile'),
  joinInfo: (q: { operatorId: string; workspaceId: string; token: string }) =>
    api<{ operatorName: string; operatorAvatar: string | null; workspace: string; workspaceAvatar: string | null }>(
      `/operators/join-workspace?${new URLSearchParams(q).toString()}`,
      { auth: false },
    ),
  joinWorkspace: (body: JoinWorkspaceReq) => api<unknown>('/operators/join-workspace', { method: 'POST', body, auth: false }),
  completeRegister: (body: CompleteRegisterReq) => api<LoginData | TwoFactorChallengeView>('/operators/complete-register', { method: 'POST', body, auth: false }),
};
