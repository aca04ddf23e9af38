import type { Context, Next } from 'koa';
import { AppError, errors, type ErrorEntry } from './errors';
import type { Logger } from '../logger';

interface PgError {
  code?: string;
  constraint?: string;
  detail?: string;
}

/** PostgreSQL errors that mean the request was wrong, not the server (objection recipe: unique → 409, FK/check → 400). */
function fromDatabase(err: PgError): AppError | undefined {
  switch (err.code) {
    case '23505':
      return errors.conflict('Já existe um registro com estes dados.', constraintField(err.constraint));
    case '23503':
      return errors.badRequest('Referência a um registro inexistente.');
    case '23514':
    case '23502':
    case '22001':
    case '22021': // NUL or another byte PostgreSQL text cannot hold
    case '22P05': // the same inside jsonb (\u0000): validation refuses it first (api/http/validate.ts), this is the backstop
    case '22003':
      return errors.badRequest('Dados inválidos.');
    case '22P02':
      return errors.badRequest('Identificador inválido.');
    default:
      return undefined;
  }
}

function constraintField(constraint?: string): string | undefined {
  // Constraints are named <table>_<column>_unique by our migrations.
  const m = constraint?.match(/^[a-z_]+?_([a-z]+(?:_[a-z]+)*)_unique$/);
  if (!m) return undefined;
  return m[1].replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** Socket errors and PostgreSQL classes 08 (connection) and 57P (shutdown), 53300 (too many connections). */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', '57P01', '57P02', '57P03', '53300']);

/**
 * The database (or another dependency) cannot be reached: the request was fine, retrying later will work,
 * so 503 with the error shape instead of a 500 (docs/reliability.md).
 */
function fromUnreachable(err: { name?: string; code?: string; message?: string; nativeError?: unknown }): AppError | undefined {
  const native = (err.nativeError ?? err) as { code?: string; message?: string };
  const code = native.code ?? err.code ?? '';
  const message = native.message ?? err.message ?? '';
  if (
    err.name === 'KnexTimeoutError' ||
    UNREACHABLE_CODES.has(code) ||
    code.startsWith('08') ||
    /^(Connection terminated|Connection ended unexpectedly|timeout expired$|timeout exceeded when trying to connect|Client has encountered a connection error)/.test(message)
  ) {
    return errors.unavailable('O serviço está temporariamente indisponível. Tente novamente em instantes.');
  }
  return undefined;
}

/** Errors from body parsing and other koa middleware carry an HTTP status and `expose`. */
function fromHttp(err: { status?: number; statusCode?: number; type?: string }): AppError | undefined {
  const status = err.status ?? err.statusCode;
  if (status === 413) return errors.payloadTooLarge('A requisição excede o tamanho máximo permitido.');
  if (status === 415) return errors.badRequest('Tipo de conteúdo não suportado. Envie JSON.');
  if (status === 400) {
    return errors.badRequest(
      err.type === 'entity.parse.failed' ? 'JSON malformado no corpo da requisição.' : 'Requisição inválida.',
    );
  }
  if (status === 404) return errors.notFound();
  if (status === 405) return errors.badRequest('Método não permitido.');
  return undefined;
}

export function toAppError(err: unknown): AppError | undefined {
  if (err instanceof AppError) return err;
  if (err && typeof err === 'object') {
    // Objection wraps driver errors (db-errors); the PostgreSQL code is on the wrapped one.
    const db = fromDatabase(((err as { nativeError?: PgError }).nativeError ?? err) as PgError);
    if (db) return db;
    const name = (err as { name?: string }).name;
    if (name === 'NotFoundError') return errors.notFound();
    const http = fromHttp(err as { status?: number });
    if (http) return http;
    const unreachable = fromUnreachable(err as { name?: string; code?: string });
    if (unreachable) return unreachable;
  }
  return undefined;
}

/**
 * A 503 with Retry-After is load being shed on purpose (api/channels/widget/shed.ts): under an overload there is one
 * per refused request, so they are logged as one warning per 10 s with how many there were, not each as an
 * error (a log line per refusal would cost the core the accepted requests need).
 */
function shedLog(logger: Logger, everyMs = 10_000) {
  let since = 0;
  let count = 0;
  return (path: string): void => {
    count++;
    const now = Date.now();
    if (now - since < everyMs) return;
    logger.warn({ refused: count, path }, 'requests refused while over capacity (503, Retry-After)');
    since = now;
    count = 0;
  };
}

/** The one place that writes the error shape of DESIGN.md §3. */
export function errorMiddleware(logger: Logger) {
  const shed = shedLog(logger);
  return async function handleErrors(ctx: Context, next: Next): Promise<void> {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined && ctx.path.startsWith('/api')) {
        throw errors.notFound('Rota não encontrada.');
      }
    } catch (err) {
      const known = toAppError(err);
      const requestId = String(ctx.state.requestId ?? '');
      if (known) {
        ctx.status = known.status;
        for (const [k, v] of Object.entries(known.headers)) ctx.set(k, v);
        ctx.body = { errors: known.entries };
        if (known.status === 503 && known.headers['Retry-After']) shed(ctx.path);
        else if (known.status >= 500) logger.error({ err, requestId }, 'request failed');
        return;
      }
      logger.error({ err, requestId }, 'unexpected error');
      const entry: ErrorEntry = {
        type: 'ServerError',
        title: 'Erro interno',
        descriptions: [`Erro inesperado no servidor. Código de rastreio: ${requestId}`],
      };
      ctx.status = 500;
      ctx.body = { errors: [entry] };
    }
  };
}
