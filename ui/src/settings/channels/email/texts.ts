/** Texts of the e-mail channel screen (SPEC §8 verbatim where SPEC gives them); to move into i18n/ptBR.ts. */
export const emailTexts = {
  newTitle: 'Novo canal de E-mail',
  help: 'Ao salvar, geramos um endereço de encaminhamento. Configure a caixa de e-mail da empresa para encaminhar as mensagens para ele: elas chegam na caixa de entrada e as respostas dos agentes saem por e-mail, na mesma conversa.',
  description: 'Descrição',
  save: 'Salvar',
  saved: 'Canal de E-mail salvo',
  address: 'Endereço de encaminhamento',
  instructions: 'No Gmail: Configurações › Encaminhamento e POP/IMAP › Adicionar um endereço de encaminhamento. No Outlook: Configurações › E-mail › Encaminhamento. Cole o endereço acima.',
  back: 'Voltar aos canais',
};
