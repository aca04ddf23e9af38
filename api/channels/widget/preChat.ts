import { errors, type FieldError } from '../../http/errors';
import { PRE_CHAT_FIELDS, type PreChatField, type PreChatMode } from './schema';

/** The pre-chat form's required-field texts, the same in the widget (ui/widget/texts.ts) and the API. */
export const PRE_CHAT_REQUIRED: Record<PreChatField, string> = {
  name: 'Informe seu nome.',
  email: 'Informe seu e-mail.',
  phone: 'Informe seu telefone.',
};

/** Where the widget sends each field in POST /v1/widget/messages (the name travels as SPEC's `sender`). */
const BODY_KEY: Record<PreChatField, string> = { name: 'sender', email: 'email', phone: 'phone' };

/**
 * A first contact of a widget whose pre-chat form requires a field must bring it (400, every missing field
 * at once, keyed as sent). Later messages carry a token and are not asked again.
 */
export function requirePreChat(preChat: Record<PreChatField, PreChatMode>, contact: { name?: string; email?: string; phone?: string }): void {
  const fields: FieldError[] = PRE_CHAT_FIELDS.filter((f) => preChat[f] === 'required' && !contact[f]).map((f) => ({ key: BODY_KEY[f], descriptions: [PRE_CHAT_REQUIRED[f]] }));
  if (fields.length) throw errors.validation(fields);
}
