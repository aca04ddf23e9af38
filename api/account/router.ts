import Router from '@koa/router';
import type { Context } from 'koa';
import type { z } from 'zod';
import type { AppDeps } from '../deps';
import { actorOf, authenticate } from '../auth/authenticate';
import { authorizePerson, type Actor } from '../policy/policy';
import { parseBody } from '../http/validate';
import { limitAccount, limitFailedLogins, limitIp } from '../auth/limits';
import {
  ChangePasswordSchema,
  CompleteRegisterSchema,
  ConfirmEmailSchema,
  ForgotPasswordSchema,
  LoginSchema,
  ProfileUpdateSchema,
  RenewTokenSchema,
  ResetPasswordSchema,
  SignupSchema,
} from '../auth/schema';
import { signup } from './signup';
import { login } from '../auth/login';
import { FORGOT_PASSWORD_ANSWER, forgotPassword } from '../auth/forgotPassword';
import { resetPassword } from '../auth/resetPassword';
import { confirmEmail, resendConfirmation } from '../auth/confirmEmail';
import { renewSession } from '../auth/renewSession';
import { changePassword } from '../auth/changePassword';
import { updateProfile } from '../auth/updateProfile';
import { completeRegister } from './completeRegister';
import { loadUser } from '../auth/issueSession';

const PASSWORD_FIELDS = ['password', 'newPassword', 'confirmNewPassword'];

/** Operator account calls of SPEC §7 (signup, login, tokens, passwords, profile, registration). */
export function authRouter(deps: AppDeps) {
  const router = new Router();
  const auth = authenticate(deps);

  router.post('/signup', async (ctx) => {
    await limitIp(deps, ctx, 'signup');
    const input = parseBody(ctx, SignupSchema);
    ctx.status = 201;
    ctx.body = { data: await signup(deps, input) };
  });

  router.post('/operators/login', async (ctx) => {
    const input = parseBody(ctx, LoginSchema);
    ctx.body = { data: await limitFailedLogins(deps, ctx, input.email, () => login(deps, input)) };
  });

  router.post('/operators/forgot-password', async (ctx) => {
    await limitIp(deps, ctx, 'forgotPassword');
    const { email } = parseBody(ctx, ForgotPasswordSchema);
    await limitAccount(deps, 'forgotPassword', email);
    // The work happens after the answer, so its duration cannot tell whether the e-mail exists.
    setImmediate(() => {
      forgotPassword(deps, email).catch((err: unknown) => deps.logger.error({ err }, 'forgot-password failed'));
    });
    ctx.body = { data: FORGOT_PASSWORD_ANSWER };
  });

  const reset = async (ctx: Context) => {
    await limitIp(deps, ctx, 'resetPassword');
    const input = parseBody(ctx, ResetPasswordSchema);
    ctx.body = { data: await resetPassword(deps, input) };
  };
  router.post('/operators/reset-password', reset);
  router.put('/operators/reset-password', reset);

  router.post('/operators/confirm-email', async (ctx) => {
    const { token } = parseBody(ctx, ConfirmEmailSchema);
    ctx.body = { data: await confirmEmail(deps, token) };
  });

  router.get('/operators/resend-email', auth, async (ctx) => {
    const actor = actorOf(ctx);
    authorizePerson(actor);
    await limitAccount(deps, 'resendEmail', actor.operatorId);
    await resendConfirmation(deps, actor.operatorId);
    ctx.body = { data: { sent: true } };
  });

  router.post('/operators/renew-token', async (ctx) => {
    const input = parseBody(ctx, RenewTokenSchema);
    ctx.body = { data: await renewSession(deps, input) };
  });

  /** A change a person makes to their own account (not an API token): the body through its schema, then the command. */
  const ownChange = <S extends z.ZodType>(schema: S, change: (deps: AppDeps, actor: Actor, input: z.output<S>) => Promise<unknown>) => async (ctx: Context) => {
    authorizePerson(actorOf(ctx));
    const input = parseBody(ctx, schema);
    ctx.body = { data: await change(deps, actorOf(ctx), input) };
  };
  const changeOwnPassword = ownChange(ChangePasswordSchema, changePassword);
  router.post('/operators/change-password', auth, changeOwnPassword);
  router.put('/operators/change-password', auth, changeOwnPassword);

  const showProfile = async (ctx: Context) => {
    const actor = actorOf(ctx);
    authorizePerson(actor);
    ctx.body = { data: await loadUser(deps.knex, actor.operatorId, actor.workspaceId) };
  };
  const editProfile = ownChange(ProfileUpdateSchema, updateProfile);
  router.get('/operators/profile', auth, showProfile);
  router.put('/operators/profile', auth, editProfile);
  router.get('/session', auth, showProfile);
  // SPEC §7 lists both a profile update and a password change under /session.
  router.put('/session', auth, async (ctx) => {
    const body = (ctx.request as { body?: unknown }).body;
    const isPasswordChange = typeof body === 'object' && body !== null && PASSWORD_FIELDS.some((k) => k in body);
    return isPasswordChange ? changeOwnPassword(ctx) : editProfile(ctx);
  });

  router.post('/operators/complete-register', async (ctx) => {
    const input = parseBody(ctx, CompleteRegisterSchema);
    ctx.body = { data: await completeRegister(deps, input) };
  });

  return router;
}
