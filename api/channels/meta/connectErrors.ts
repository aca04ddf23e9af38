import { errors } from '../../http/errors';
import { ChannelSendError } from '../sendErrors';
import { GraphCallError } from './client';
import { isGraphAuthError } from './graphErrors';

/**
 * A Graph refusal while connecting, as the screen's error (SPEC §8: the Facebook login error is a warning
 * with Meta's message): an expired login asks to log in again, anything else shows what Meta said.
 */
export function connectError(err: unknown) {
  if (err instanceof GraphCallError) {
    if (isGraphAuthError(err.status, err.error)) return errors.field('session', `O Facebook recusou o acesso: ${err.error?.message ?? 'login expirado'}. Clique em "Conectar com o Facebook" de novo.`);
    return errors.badRequest(`O Facebook respondeu: ${err.error?.error_user_msg ?? err.error?.message ?? `erro HTTP ${err.status}`}`);
  }
  if (err instanceof ChannelSendError) return errors.unavailable('Sem contato com o Facebook. Tente novamente em instantes.');
  return err;
}
