import type { AuthProvider } from 'ra-core';
import type { LoginReq } from '../../../api/auth/schema';
import { api, HttpError } from './httpClient';
import { clearLocalData, getSession, saveLogin, type LoginData } from './session';
import { pushApi } from '../pwa/pushApi';

const LOGIN_PATH = '/user/login';

/**
 * react-admin's view of the session (SPEC §4): the session lives in local preferences, any 401 logs
 * out, permissions are the access level in the current workspace. Token renewal runs in
 * tokenRenewal.ts and before every call in httpClient.ts.
 */
export const authProvider: AuthProvider = {
  async login(params: LoginReq) {
    const data = await api<LoginData>('/operators/login', { method: 'POST', body: params, auth: false });
    saveLogin(data);
    return { redirectTo: '/inbox' };
  },
  async logout() {
    // This device stops receiving the agent's pushes (docs/pwa.md) while the session can still say so.
    if (getSession()) await pushApi.forgetThisDevice();
    clearLocalData();
    return LOGIN_PATH;
  },
  async checkAuth() {
    if (!getSession()) throw { redirectTo: LOGIN_PATH, message: false };
  },
  async checkError(error: unknown) {
    const status = error instanceof HttpError ? error.status : (error as { status?: number } | null)?.status;
    if (status === 401) throw { redirectTo: LOGIN_PATH, logoutUser: true, message: false };
  },
  async getPermissions() {
    return getSession()?.workspace.accessLevel ?? 0;
  },
  async getIdentity() {
    const session = getSession();
    if (!session) throw new HttpError(401, []);
    return { id: session.user.id, fullName: session.user.name, avatar: session.user.avatar ?? undefined };
  },
};
