import type { Context, Next } from 'koa';
import type { AppDeps } from '../../deps';
import { bearerToken } from '../../auth/authenticate';
import { errors } from '../../http/errors';
import { findVisitorByToken, type VisitorSession } from '../../auth/visitorSessions';

const INVALID = 'Sessão do visitante inválida. Envie uma nova mensagem para começar outra conversa.';

/** The visitor behind a token; a token that is sent but unknown is a 401, so the widget starts over. */
/** The 401 for a visitor token that names no session: the widget starts over. */
export function invalidVisitorSession(): Error {
  return errors.authentication(INVALID);
}

export async function resolveVisitor(deps: Pick<AppDeps, 'knex'>, token: string): Promise<VisitorSession> {
  const visitor = await findVisitorByToken(deps.knex, token);
  if (!visitor) throw invalidVisitorSession();
  return visitor;
}

/** Requires `Authorization: Bearer <visitor token>`; sets ctx.state.visitor. */
export function requireVisitor(deps: Pick<AppDeps, 'knex'>) {
  return async function visitorSession(ctx: Context, next: Next): Promise<void> {
    const token = bearerToken(ctx);
    if (!token) throw errors.authentication('Token do visitante ausente.');
    ctx.state.visitor = await resolveVisitor(deps, token);
    await next();
  };
}

export function visitorOf(ctx: Context): VisitorSession {
  const visitor = ctx.state.visitor as VisitorSession | undefined;
  if (!visitor) throw invalidVisitorSession();
  return visitor;
}
