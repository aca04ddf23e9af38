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
};
