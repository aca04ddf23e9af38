import type { LoginView } from './presenters';

/**
 * Types only (the UI imports them): what a login answers when a right password still needs the two-factor
 * step (docs/two-factor.md).
 */

/** 'code': type the app's code or a backup code; 'setup': the workspace requires it and the operator has none. */
export type ChallengeStep = 'code' | 'setup';

/** The answer of a login (or an invitation's registration) that needs one more step before a session. */
export interface TwoFactorChallengeView {
  twoFactor: {
    step: ChallengeStep;
    challengeToken: string;
    expiresAt: string;
    /** The workspace being entered (the setup screen names who requires it). */
    workspace: string;
  };
}

export type LoginOrChallengeView = LoginView | TwoFactorChallengeView;
