import { ChannelSendError } from '../sendErrors';

/**
 * Graph API errors as Meta documents them: `{error: {message, type, code, error_subcode, fbtrace_id}}`,
 * classified by code (Meta advises against relying on the message or the HTTP status).
 */
export interface GraphError {
  message?: string;
  type?: string;
  code?: number;
  error_subcode?: number;
  error_user_msg?: string;
  error_data?: { details?: string };
}

/** 190 invalid/expired/revoked token, 102 session; 200-299 a permission the page granted was withdrawn. */
const AUTH_CODES = new Set([102, 190]);
/** 4 app, 17 user, 32 page, 613 calls-per-hour throttling; 80006 Messenger, 80002 Instagram business-use-case limits. */
const RATE_CODES = new Set([4, 17, 32, 613, 80002, 80006]);
/** 1 unknown, 2 service temporarily unavailable. */
const TRANSIENT_CODES = new Set([1, 2]);
/** 10 + 2018278, 2534022: outside the allowed messaging window. */
const WINDOW_SUBCODES = new Set([2018278, 2534022]);

export function isWindowError(error: GraphError | undefined): boolean {
  return error?.code === 10 && error.error_subcode !== undefined && WINDOW_SUBCODES.has(error.error_subcode);
}

export function isGraphAuthError(status: number, error: GraphError | undefined): boolean {
  const code = error?.code;
  return status === 401 || (code !== undefined && (AUTH_CODES.has(code) || (code >= 200 && code <= 299)));
}

/** 100 + 2018008: "Failed to fetch the file from the url" (Meta downloads an attachment sent by URL). */
const ATTACHMENT_NOT_FETCHED = 2018008;

/** A Graph error of a Messenger or Instagram send as the delivery path's error, in pt-BR. */
export function messagingSendError(platform: 'Facebook' | 'Instagram', status: number, error: GraphError | undefined): ChannelSendError {
  const code = error?.code ?? status;
  const detail = error?.error_user_msg ?? error?.message ?? `HTTP ${status}`;
  if (isWindowError(error)) {
    return new ChannelSendError(`Fora da janela de 24 horas: o ${platform} só aceita uma resposta até 24 horas depois da última mensagem do cliente.`, { transient: false, code });
  }
  if (isGraphAuthError(status, error)) {
    return new ChannelSendError(`O acesso à página do ${platform} expirou ou foi revogado. Conecte a página novamente.`, { transient: false, disconnect: true, code });
  }
  if (error?.error_subcode === ATTACHMENT_NOT_FETCHED) {
    return new ChannelSendError(`O ${platform} não conseguiu baixar o arquivo do endereço público deste servidor (PUBLIC_URL). Confira se ele está acessível pela internet e reenvie.`, { transient: false, code });
  }
  if (error?.code === 551 || error?.error_subcode === 1545041) return new ChannelSendError('Esta pessoa não está disponível para receber mensagens agora.', { transient: false, code });
  if ((error?.code !== undefined && RATE_CODES.has(error.code)) || status === 429) {
    return new ChannelSendError(`Limite de envio do ${platform} atingido; nova tentativa em breve.`, { transient: true, code, retryAfterMs: 60_000 });
  }
  if ((error?.code !== undefined && TRANSIENT_CODES.has(error.code)) || status >= 500) {
    return new ChannelSendError(`O ${platform} está indisponível; nova tentativa em breve.`, { transient: true, code });
  }
  return new ChannelSendError(`O ${platform} recusou a mensagem: ${detail}`, { transient: false, code });
}
