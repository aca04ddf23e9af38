import { useMemo } from 'react';
import { Navigate, Outlet, Route, Routes, useLocation } from 'react-router';
import { hasSession } from '../providers/session';
import { PublicShell } from '../public/PublicShell';
import { LoginPage } from './LoginPage';
import { ForgotPage, ForgotSentPage } from './ForgotPage';
import { ResetPage, ResetSuccessPage } from './ResetPage';
import { RegisterPage } from './RegisterPage';
import { CreatingPage } from './CreatingPage';
import { EmailConfirmPage } from './EmailConfirmPage';
import { JoinWorkspacePage } from './JoinWorkspacePage';
import { JoinRegisterPage, JoinRegisterSuccessPage } from './JoinRegisterPage';
import { LogoutPage } from './LogoutPage';
import { TwoFactorLoginPage } from './twoFactor/TwoFactorLoginPage';

/**
 * SPEC §2 Auth area: redirects to / when already logged in (except logout). Checked when a page is
 * entered, not when a page logs in: that page navigates on by itself.
 */
function GuestOnly() {
  const location = useLocation();
  const loggedIn = useMemo(() => hasSession(), [location.key]);
  return loggedIn ? <Navigate to="/" replace /> : <Outlet />;
}

/**
 * The /user pages. E-mail confirmation and joining a workspace also work while logged in: their
 * links are usually opened in the browser that is already logged in (see docs/ui.md).
 */
export default function AuthRoutes() {
  return (
    <PublicShell>
      <Routes>
        <Route path="logout" element={<LogoutPage />} />
        <Route path="email-confirm" element={<EmailConfirmPage />} />
        <Route path="join-workspace" element={<JoinWorkspacePage />} />
        <Route element={<GuestOnly />}>
          <Route path="login" element={<LoginPage />} />
          <Route path="two-factor" element={<TwoFactorLoginPage />} />
          <Route path="forgot" element={<ForgotPage />} />
          <Route path="forgot/sent" element={<ForgotSentPage />} />
          <Route path="reset" element={<ResetPage />} />
          <Route path="reset/success" element={<ResetSuccessPage />} />
          <Route path="register" element={<RegisterPage />} />
          <Route path="register/creating" element={<CreatingPage />} />
          <Route path="join/register" element={<JoinRegisterPage />} />
          <Route path="join/register/success" element={<JoinRegisterSuccessPage />} />
        </Route>
        <Route path="*" element={<Navigate to="/user/login" replace />} />
      </Routes>
    </PublicShell>
  );
}
