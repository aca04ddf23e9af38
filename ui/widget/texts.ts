/**
 * The widget's texts (pt-BR). They live beside the widget, not in ui/src/i18n/ptBR.ts: the widget is a
 * separate bundle for customers' sites and must not carry the app's text table (docs/widget.md).
 */
export const texts = {
  subtitle: 'Fale conosco',
  open: 'Abrir chat',
  close: 'Fechar chat',
  placeholder: 'Digite sua mensagem…',
  send: 'Enviar',
  attach: 'Enviar arquivo',
  attachFirst: 'Envie uma mensagem antes de anexar arquivos.',
  welcome: 'Olá! Envie sua mensagem e nossa equipe responderá por aqui.',
  typing: 'digitando…',
  you: 'Você',
  team: 'Equipe',
  sending: 'Enviando…',
  verifying: 'Verificando…',
  failed: 'Não enviada. Toque para tentar de novo.',
  refused: 'Não enviada: a mensagem não foi aceita.',
  fileTooBig: 'O arquivo excede o limite de 16 MB.',
  fileFailed: 'Não foi possível enviar o arquivo.',
  offline: 'Sem conexão. Tentando reconectar…',
  tooMany: 'Muitas mensagens em pouco tempo. Aguarde um instante.',
  messages: 'Mensagens',
  unread: 'Novas mensagens',
  notFound: 'Chat indisponível: este widget não existe ou foi excluído. Se você administra este site, confira o código de instalação em Configurações › Canais › Chat do site.',
  notAllowed: 'Balcão widget: este site não está entre os sites permitidos do widget.',
  responseMinute: 'Respondemos em cerca de 1 minuto',
  responseMinutes: 'Respondemos em cerca de {n} minutos',
  responseHours: 'Respondemos em cerca de {n} horas',
  preChatIntro: 'Antes de começar, conte um pouco sobre você.',
  name: 'Nome',
  email: 'E-mail',
  phone: 'Telefone',
  optional: '(opcional)',
  start: 'Iniciar conversa',
  nameRequired: 'Informe seu nome.',
  emailRequired: 'Informe seu e-mail.',
  phoneRequired: 'Informe seu telefone.',
  emailInvalid: 'E-mail inválido.',
  phoneInvalid: 'Telefone inválido: informe DDD e número.',
  csatScale: 'Sua nota para o atendimento',
  csatCommentLabel: 'Comentário (opcional)',
  csatComment: 'Conte o que achou, se quiser',
  csatSend: 'Enviar avaliação',
  csatYourRating: 'Sua nota: {n} de 5',
  csatClosed: 'O prazo para avaliar este atendimento terminou.',
  csatFailed: 'Não foi possível enviar a avaliação. Tente de novo.',
};

/** 'Respondemos em cerca de X minutos' for the median first response (api/channels/widget/publicFacts.ts). */
export function responseText(minutes: number): string {
  if (minutes <= 1) return texts.responseMinute;
  if (minutes < 90) return texts.responseMinutes.replace('{n}', String(minutes));
  return texts.responseHours.replace('{n}', String(Math.round(minutes / 60)));
}
