/** The CSAT texts the inbox shows at once (the question's bubble, the contact's history): kept small, apart from ./texts. */
export const csatLabels = {
  message: {
    survey: 'Pesquisa de satisfação',
    pending: 'Aguardando a avaliação do cliente',
    expired: 'O cliente não avaliou dentro do prazo',
    rated: 'Avaliação do cliente: %{rating} de 5',
    answer: 'Avaliação: %{rating} de 5',
    thanks: 'Agradecimento da pesquisa',
  },
  history: {
    rated: 'Avaliação: %{rating}/5',
    unanswered: 'Pesquisa enviada, sem avaliação',
    skipped: 'Pesquisa não enviada',
  },
} as const;
