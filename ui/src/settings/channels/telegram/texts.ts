/** Texts of the Telegram line screen (SPEC §8 verbatim where SPEC gives them); to move into i18n/ptBR.ts. */
export const telegramTexts = {
  newTitle: 'Nova linha de Telegram',
  help: 'No Telegram, fale com o @BotFather, envie /newbot e copie o token que ele devolver. Ao salvar, conectamos o bot a esta conta: as mensagens enviadas a ele chegam na caixa de entrada.',
  identifier: 'Token do bot',
  identifierHelp: 'Algo como 123456789:AAH... O token fica cifrado e não é exibido de novo.',
  description: 'Descrição',
  save: 'Salvar',
  saved: 'Linha de Telegram salva',
  bot: 'Bot',
  back: 'Voltar aos canais',
  status: 'Status',
  notFound: 'Linha de Telegram não encontrada.',
  delete: 'Excluir',
  deleteTitle: 'Excluir canal',
  deleteConfirm: 'Tem certeza que deseja excluir o canal %{name}? As conversas dele também serão excluídas e o bot deixa de enviar mensagens para cá. Esta ação é permanente e não pode ser desfeita.',
  deleted: 'Excluído com sucesso.',
};
