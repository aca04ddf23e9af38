import type { MailMessage } from '../mail/mailer';
import { PLANS } from './plans';

/** The billing e-mails (pt-BR), built here and sent by the lifecycle's activities. */

const money = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });
const day = new Intl.DateTimeFormat('pt-BR', { timeZone: 'America/Sao_Paulo', day: '2-digit', month: '2-digit', year: 'numeric' });

/** R$ 1.234,56 from centavos (a plain space instead of Intl's non-breaking one, for plain-text mail). */
export const formatBRL = (centavos: number) => money.format(centavos / 100).replace(/\u00a0/g, ' ');
export const formatDay = (at: Date | string) => day.format(new Date(at));

const planName = (license: string) => PLANS[license as keyof typeof PLANS]?.name ?? license;

export interface RenewalMail {
  to: string;
  workspace: string;
  license: string;
  amount: number;
  expiresAt: Date | string;
  link: string;
  /** Days left before the period ends (7 when the invoice is issued, 1 for the last reminder). */
  daysLeft: number;
}

export function renewalMail(m: RenewalMail): MailMessage {
  const when = m.daysLeft === 1 ? 'amanhã' : `em ${m.daysLeft} dias`;
  const subject = m.daysLeft === 1 ? `Sua assinatura do Balcão vence amanhã: fatura de ${formatBRL(m.amount)} em aberto` : `Fatura de renovação do Balcão: ${formatBRL(m.amount)}`;
  const text = [
    'Olá!',
    '',
    `A assinatura do plano ${planName(m.license)} do workspace ${m.workspace} vence ${when}, em ${formatDay(m.expiresAt)}.`,
    `A fatura de renovação, de ${formatBRL(m.amount)}, já está disponível para pagamento por Pix ou Boleto:`,
    m.link,
    '',
    'Se o pagamento não for confirmado até o vencimento, o plano continua funcionando por mais 3 dias; depois disso, o envio de mensagens e as campanhas ficam bloqueados até a renovação.',
    'Se não quiser renovar, cancele a assinatura em Configurações > Assinatura.',
  ].join('\n');
  return { to: m.to, subject, text, link: m.link };
}

export function trialEndingMail(m: { to: string; workspace: string; expiresAt: Date | string; link: string; daysLeft: number }): MailMessage {
  const when = m.daysLeft === 1 ? 'amanhã' : `em ${m.daysLeft} dias`;
  const text = [
    'Olá!',
    '',
    `O período de avaliação do workspace ${m.workspace} termina ${when}, em ${formatDay(m.expiresAt)}.`,
    'Para continuar atendendo seus clientes sem interrupção, escolha um plano e pague por Pix ou Boleto:',
    m.link,
  ].join('\n');
  return { to: m.to, subject: `Sua avaliação do Balcão termina ${when}`, text, link: m.link };
}
