import { z } from 'zod';
import { queryDay, queryInt } from '../http/textFields';

/**
 * The Contacts page's requests (docs/contacts.md): zod and http/textFields.ts only, shared with ui/src/contacts.
 * Channel types carry SPEC §2's labels (WhatsApp, Instagram, Messenger, Telegram, Email, Customizado, Widget).
 */
export const CONTACT_CHANNEL_TYPES = ['whatsapp', 'instagram', 'facebook', 'telegram', 'email', 'custom', 'widget'] as const;
export type ContactChannelType = (typeof CONTACT_CHANNEL_TYPES)[number];

/** SPEC §9: tables show 20 rows a page. */
export const CONTACTS_PAGE_SIZE = 20;

/** What one import may hold: the JSON body limit is 1 MB, and a preview must stay readable. */
export const IMPORT_MAX_CHARS = 700_000;
export const IMPORT_MAX_ROWS = 2000;
export const IMPORT_TOO_LARGE = 'O arquivo passa de 700 KB: divida-o em arquivos menores.';
export const IMPORT_TOO_MANY_ROWS = `O arquivo tem mais de ${IMPORT_MAX_ROWS.toLocaleString('pt-BR')} contatos: divida-o em arquivos menores.`;

/** A comma-separated list in the query; a bad item fails the whole field (key = the field). */
const csvList = (valid: (item: string) => boolean, message: string) =>
  z
    .string()
    .max(2000, message)
    .transform((s) => s.split(',').map((v) => v.trim()).filter(Boolean))
    .refine((list) => list.length <= 50 && list.every(valid), message);

/** GET /customer: the contacts list with its filters. */
export const ContactListQuerySchema = z
  .object({
    query: z.string().trim().max(200, 'A busca deve ter no máximo 200 caracteres.').optional(),
    channels: csvList((v) => (CONTACT_CHANNEL_TYPES as readonly string[]).includes(v), 'Canal inválido.')
      .transform((list) => list as ContactChannelType[])
      .optional(),
    tags: csvList((v) => /^[1-9][0-9]{0,8}$/.test(v), 'Etiqueta inválida.')
      .transform((list) => list.map(Number))
      .optional(),
    from: queryDay('Data inicial inválida.').optional(),
    to: queryDay('Data final inválida.').optional(),
    limit: queryInt(CONTACTS_PAGE_SIZE, 100).transform((v) => Math.max(v, 1)),
    offset: queryInt(0, 10_000_000),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { path: ['to'], message: 'A data final deve ser igual ou posterior à inicial.' });
export type ContactListQuery = z.infer<typeof ContactListQuerySchema>;

/** POST /customer/import/preview and POST /customer/import: the CSV file's text as read by the browser. */
export const ContactImportSchema = z.object({
  content: z
    .string({ error: 'Escolha um arquivo .csv.' })
    .min(1, 'O arquivo está vazio.')
    .max(IMPORT_MAX_CHARS, IMPORT_TOO_LARGE),
});
export type ContactImportReq = z.infer<typeof ContactImportSchema>;

/** POST /customer/:id/email-conversation: a first e-mail to the contact on one of the workspace's e-mail channels. */
export const EmailConversationSchema = z.object({
  workspacePlatformId: z.number({ error: 'Selecione o canal de e-mail.' }).int('Selecione o canal de e-mail.').positive('Selecione o canal de e-mail.').max(2147483647, 'Selecione o canal de e-mail.'),
  subject: z.string({ error: 'Informe o assunto.' }).trim().min(1, 'Informe o assunto.').max(200, 'O assunto deve ter no máximo 200 caracteres.'),
  content: z.string({ error: 'Escreva a mensagem.' }).trim().min(1, 'Escreva a mensagem.').max(10_000, 'A mensagem deve ter no máximo 10.000 caracteres.'),
});
export type EmailConversationReq = z.infer<typeof EmailConversationSchema>;
