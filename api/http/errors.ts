/**
 * Typed errors. Routes and commands throw these; api/http/errorMiddleware.ts is the only place
 * that turns them into the error shape of DESIGN.md §3.
 */
export type ErrorType =
  | 'ValidationError'
  | 'AuthenticationError'
  | 'PaymentRequiredError'
  | 'ForbiddenError'
  | 'NotFoundError'
  | 'ConflictError'
  | 'PayloadTooLargeError'
  | 'RateLimitError'
  | 'ServiceUnavailableError'
  | 'ServerError';

export interface ErrorEntry {
  type: ErrorType;
  title: string;
  key?: string;
  descriptions: string[];
  /** An app route that resolves the refusal, for the UI to offer (a plan limit → '/settings/billing/license'). */
  link?: string;
}

const STATUS: Record<ErrorType, number> = {
  ValidationError: 400,
  AuthenticationError: 401,
  PaymentRequiredError: 402,
  ForbiddenError: 403,
  NotFoundError: 404,
  ConflictError: 409,
  PayloadTooLargeError: 413,
  RateLimitError: 429,
  ServiceUnavailableError: 503,
  ServerError: 500,
};

export class AppError extends Error {
  readonly status: number;
  readonly entries: ErrorEntry[];
  readonly headers: Record<string, string>;

  constructor(type: ErrorType, entries: ErrorEntry[], headers: Record<string, string> = {}) {
    super(entries.map((e) => e.descriptions.join(' ')).join('; ') || type);
    this.name = type;
    this.status = STATUS[type];
    this.entries = entries;
    this.headers = headers;
  }
}

function single(type: ErrorType, title: string, description: string, key?: string): AppError {
  return new AppError(type, [{ type, title, ...(key ? { key } : {}), descriptions: [description] }]);
}

export interface FieldError {
  key: string;
  descriptions: string[];
}

export const errors = {
  /** One entry per failing field, all reported at once. */
  validation(fields: FieldError[]): AppError {
    return new AppError(
      'ValidationError',
      fields.map((f) => ({ type: 'ValidationError', title: 'Dados inválidos', key: f.key, descriptions: f.descriptions })),
    );
  },
  field(key: string, description: string): AppError {
    return single('ValidationError', 'Dados inválidos', description, key);
  },
  badRequest(description: string): AppError {
    return single('ValidationError', 'Requisição inválida', description);
  },
  authentication(description = 'Sessão inválida ou expirada. Entre novamente.'): AppError {
    return single('AuthenticationError', 'Não autenticado', description);
  },
  forbidden(description = 'Você não tem permissão para esta ação.'): AppError {
    return single('ForbiddenError', 'Acesso negado', description);
  },
  notFound(description = 'Registro não encontrado.'): AppError {
    return single('NotFoundError', 'Não encontrado', description);
  },
  conflict(description: string, key?: string): AppError {
    return single('ConflictError', 'Conflito', description, key);
  },
  payloadTooLarge(description = 'O arquivo excede o limite de 16 MB.'): AppError {
    return single('PayloadTooLargeError', 'Arquivo muito grande', description);
  },
  /** 429 with Retry-After; a limit may give its own title, key, description and extra headers. */
  rateLimit(
    retryAfterSeconds: number,
    entry: { title?: string; key?: string; description?: string } = {},
    headers: Record<string, string> = {},
  ): AppError {
    const e = new AppError('RateLimitError', [
      {
        type: 'RateLimitError',
        title: entry.title ?? 'Muitas tentativas',
        ...(entry.key ? { key: entry.key } : {}),
        descriptions: [entry.description ?? `Muitas tentativas. Tente novamente em ${retryAfterSeconds} segundos.`],
      },
    ], { ...headers, 'Retry-After': String(retryAfterSeconds) });
    return e;
  },
  /** 503; `retryAfterSeconds` adds Retry-After (a refusal under load: try again shortly). */
  unavailable(description: string, retryAfterSeconds?: number): AppError {
    const e = single('ServiceUnavailableError', 'Serviço indisponível', description);
    if (retryAfterSeconds !== undefined) e.headers['Retry-After'] = String(retryAfterSeconds);
    return e;
  },
};
