/**
 * pt-BR texts of CSAT after 'Resolver' (docs/csat.md): the channel's survey settings, the question and its
 * answer in the conversation, the rating in the contact's history and the 'Satisfação' report. Kept beside
 * the area (the i18n file is split per area); the server's errors come from api/csat/schema.ts. The inbox's
 * bubble and the contact's history import only ./labels.
 */
import { csatLabels } from './labels';

export const csatTexts = {
  settings: {
    title: 'Pesquisa de satisfação (CSAT)',
    intro: 'Depois de "Resolver", o cliente recebe uma pergunta para avaliar o atendimento de 1 a 5 e pode deixar um comentário. A resposta fica guardada no atendimento, não reabre a conversa e aparece em Relatórios › Satisfação.',
    enabled: 'Enviar a pesquisa ao resolver uma conversa deste canal',
    scale: 'Escala',
    scales: { numbers: 'Números (1 a 5)', emojis: 'Emojis (😡 a 😍)' },
    question: 'Pergunta',
    questionHelp: 'O texto que o cliente recebe. Em canais sem botões (WhatsApp, Telegram, e-mail…) segue a instrução de responder com um número de 1 a 5.',
    thanks: 'Agradecimento',
    thanksHelp: 'Enviado depois de uma resposta digitada; no widget aparece no lugar dos botões. Deixe vazio para não agradecer.',
    windowTitle: 'Fora da janela de 24 horas do WhatsApp',
    windowIntro: 'Na API oficial, passadas 24 horas da última mensagem do cliente só um modelo aprovado pode ser enviado. Escolha um modelo para a pesquisa; sem modelo, ela não é enviada e a conversa mostra o motivo. As variáveis podem usar {{nome}}, {{primeiro_nome}} e {{protocolo}}.',
    noTemplate: 'Sem modelo: não enviar fora da janela',
    useTemplate: 'Usar um modelo aprovado fora da janela',
    templatesFailed: 'Não foi possível listar os modelos desta linha.',
    chooseTemplate: 'Escolha um modelo.',
    preview: 'O cliente recebe',
    previewWidget: 'No widget, a pergunta vem com cinco botões e um campo de comentário.',
    save: 'Salvar pesquisa',
    saved: 'Pesquisa de satisfação salva',
    loadFailed: 'Não foi possível carregar a pesquisa de satisfação deste canal.',
  },
  ...csatLabels,
  labels: ['Muito insatisfeito', 'Insatisfeito', 'Neutro', 'Satisfeito', 'Muito satisfeito'],
  report: {
    tab: 'Satisfação',
    title: 'Satisfação dos clientes (CSAT)',
    average: 'Nota média',
    averageHint: 'de 5, em %{count} avaliações',
    satisfied: 'Satisfeitos',
    satisfiedHint: 'notas 4 e 5',
    answerRate: 'Taxa de resposta',
    answerRateHint: '%{answered} de %{sent} pesquisas enviadas',
    skipped: 'Não enviadas',
    skippedHint: 'fora da janela do WhatsApp, sem modelo',
    distribution: 'Distribuição das notas',
    byPeriod: 'Nota média por período',
    ratings: 'Avaliações',
    byAgent: 'Por agente',
    noAgent: 'Sem agente',
    columns: { agent: 'Agente', average: 'Nota média', count: 'Avaliações', satisfied: '% satisfeitos', period: 'Período' },
    ownOnly: 'Você vê as avaliações dos seus próprios atendimentos.',
    empty: 'Nenhuma avaliação no período. Ligue a pesquisa de satisfação nas configurações de cada canal (Configurações › Canais).',
    drillTitle: 'Atendimentos avaliados',
    drillRating: 'Atendimentos com nota %{rating}',
    drillAgent: 'Atendimentos de %{name}',
    drillEmpty: 'Nenhum atendimento avaliado com estes filtros.',
    drillHidden: '%{count} atendimento(s) de conversas que você não pode abrir não aparecem aqui.',
    drillColumns: { protocol: 'Protocolo', customer: 'Contato', channel: 'Canal', agent: 'Agente', rating: 'Nota', comment: 'Comentário', when: 'Avaliado em' },
    openConversation: 'Abrir conversa',
    close: 'Fechar',
    info: 'Como calculamos',
    definitions: [
      'Cada avaliação é de um atendimento (protocolo) resolvido com "Resolver" num canal com a pesquisa ligada. Conta no dia em que o cliente respondeu, no fuso do workspace.',
      'Nota média: a média das notas de 1 a 5. Satisfeitos: a parte das avaliações com nota 4 ou 5.',
      'Taxa de resposta: das pesquisas enviadas no período, quantas foram respondidas. Só vale a primeira resposta, em até 7 dias depois de resolver, enquanto o cliente não escreveu outra coisa.',
      'Por agente: o agente atribuído ao atendimento. Abaixo do nível Master, você vê só os seus atendimentos.',
    ],
  },
} as const;
