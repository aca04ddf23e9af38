import { texts } from '../../i18n/ptBR';

/**
 * What the contact panel calls a customer whose channel gave no name (a Meta profile Meta would not show, an
 * e-mail without a display name): the phone, the e-mail, else 'Contato sem nome' — as the conversation list
 * falls back to the phone, e-mail or channel id.
 */
export function displayNameOf(c: { name: string | null; phone: string | null; email: string | null }): string {
  return c.name?.trim() || c.phone || c.email || texts.inboxPanels.contact.unnamed;
}
