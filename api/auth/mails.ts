import type { AppDeps } from '../deps';
import type { Config } from '../config';
import type { MailMessage } from '../mail/mailer';

/** The account e-mails (pt-BR). Names typed by users are escaped in the HTML part. */

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

function link(config: Pick<Config, 'publicUrl'>, path: string, query: Record<string, string | number>): string {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]));
  return `${config.publicUrl}${path}?${qs.toString()}`;
}

function compose(to: string, subject: string, paragraphs: string[], action: { label: string; url: string }, footer: string): MailMessage {
  const text = [...paragraphs, `${action.label}: ${action.url}`, footer].join('\n\n');
  const html = [
    ...paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
    `<p><a href="${escapeHtml(action.url)}">${escapeHtml(action.label)}</a></p>`,
    `<p style="color:#667085">${escapeHtml(footer)}</p>`,
  ].join('\n');
  return { to, subject, text, html, link: action.url };
}

export function confirmEmailMail(config: Config, to: { email: string; name: string }, token: string): MailMessage {
  return compose(
    to.email,
    'Confirme seu e-mail no Balcão',
    [`Olá, ${to.name}!`, 'Confirme seu endereço de e-mail para continuar usando o Balcão.'],
    { label: 'Confirmar e-mail', url: link(config, '/user/email-confirm', { token }) },
    'Se você não criou uma conta no Balcão, ignore esta mensagem.',
  );
}

export function resetPasswordMail(config: Config, to: { email: string; name: string }, token: string): MailMessage {
  return compose(
    to.email,
    'Redefinição de senha do Balcão',
    [`Olá, ${to.name}!`, 'Recebemos um pedido para redefinir a sua senha. O link abaixo vale por 1 hora e pode ser usado uma única vez.'],
    { label: 'Redefinir senha', url: link(config, '/user/reset', { token, email: to.email }) },
    'Se você não pediu a redefinição, ignore esta mensagem: sua senha continua a mesma.',
  );
}

export interface InviteContext {
  inviterName: string;
  workspaceName: string;
}

export function inviteRegisterMail(config: Config, to: { email: string; name: string }, ctx: InviteContext, token: string): MailMessage {
  return compose(
    to.email,
    `Convite para o workspace ${ctx.workspaceName} no Balcão`,
    [`Olá, ${to.name}!`, `${ctx.inviterName} convidou você para atender no workspace ${ctx.workspaceName} do Balcão. Conclua seu cadastro para começar. O convite vale por 7 dias.`],
    { label: 'Concluir cadastro', url: link(config, '/user/join/register', { token, name: to.name, email: to.email }) },
    'Se você não esperava este convite, ignore esta mensagem.',
  );
}

export function inviteJoinMail(
  config: Config,
  to: { email: string; name: string; operatorId: number },
  ctx: InviteContext & { workspaceId: number },
  token: string,
): MailMessage {
  return compose(
    to.email,
    `Convite para o workspace ${ctx.workspaceName} no Balcão`,
    [`Olá, ${to.name}!`, `${ctx.inviterName} convidou você para o workspace ${ctx.workspaceName} do Balcão. O convite vale por 7 dias.`],
    { label: 'Aceitar convite', url: link(config, '/user/join-workspace', { operatorId: to.operatorId, workspaceId: ctx.workspaceId, token }) },
    'Se você não esperava este convite, ignore esta mensagem.',
  );
}

/**
 * Mail leaves after the transaction commits and outside the request: a slow or failing SMTP server neither
 * delays the answer (which would reveal whether an account exists) nor undoes the account change.
 */
export function sendAfterCommit(deps: Pick<AppDeps, 'mailer' | 'logger'>, message: MailMessage): void {
  deps.mailer.send(message).catch((err: unknown) => deps.logger.error({ err, to: message.to, subject: message.subject }, 'mail not sent'));
}
