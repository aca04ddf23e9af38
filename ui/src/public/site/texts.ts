/**
 * The public site's own words (header, footer, landing, pricing, page titles). The channel pages' copy and
 * the long texts (terms, privacy, Ganho Mais, development contract) live in ../content/. SPEC §1's texts are
 * used as SPEC states them: both trial readings are kept (30 days on the landing, 7 days per business e-mail
 * in the FAQ).
 */
export const siteTexts = {
  brand: 'Balcão',
  skipToContent: 'Pular para o conteúdo',
  /** The header's brand, a link to `/`. */
  homeLabel: 'Balcão: página inicial',
  ogImageAlt: 'Caixa de entrada do Balcão com conversas de WhatsApp, Instagram, e-mail e do chat do site',
  nav: {
    label: 'Navegação do site',
    pricing: 'Preços',
    login: 'Entrar',
    signup: 'Comece grátis',
  },
  /** Short names of the channel pages, for the header and the footer. */
  channelNames: {
    whatsapp: 'WhatsApp',
    facebook: 'Facebook',
    telegram: 'Telegram',
    instagram: 'Instagram',
    email: 'E-mail',
    features: 'Widget',
    bot: 'Bot',
  },
  footer: {
    product: 'Produto',
    channels: 'Canais',
    company: 'Balcão',
    faq: 'Perguntas frequentes',
    terms: 'Termos',
    privacy: 'Privacidade',
    ganhoMais: 'Ganhe mais',
    development: 'Desenvolvimento sob medida',
    rights: 'Balcão: caixa de entrada compartilhada para equipes de atendimento.',
  },
  landing: {
    title: 'Todos os seus canais de atendimento em uma só caixa de entrada',
    description:
      'WhatsApp, Telegram, Instagram, Facebook, e-mail e o chat do seu site em uma caixa de entrada compartilhada. Teste grátis por 30 dias, sem cartão de crédito.',
    pageTitle: 'Balcão: atendimento multicanal em equipe, com teste grátis de 30 dias',
    subtitle:
      'WhatsApp, Telegram, Instagram, Facebook Messenger, e-mail e o chat do seu site: sua equipe atende tudo no Balcão, com bots, etiquetas e relatórios.',
    trial: 'Teste grátis por 30 dias, sem cartão de crédito, com todas as funcionalidades exceto Campanhas.',
    emailLabel: 'Seu e-mail de trabalho',
    emailPlaceholder: 'voce@empresa.com.br',
    start: 'Começar teste grátis',
    screenshotAlt: 'Caixa de entrada do Balcão: a lista de conversas de vários canais e uma conversa aberta',
    channelsTitle: 'Um lugar para cada conversa',
    channelsLead: 'Conecte os canais que seus clientes já usam. Cada um tem uma página com o que o Balcão faz nele.',
    more: 'Saiba mais',
    featuresTitle: 'Feito para equipes',
    features: [
      'Caixa de entrada compartilhada com filtros, grupos e etiquetas',
      'Bots com fluxos roteirizados e atribuição automática',
      'Relatórios de atendimento e campanhas de WhatsApp',
      'Frases rápidas, horário comercial e notas privadas para a equipe',
      'Webhooks, plugins e API para integrar com os seus sistemas',
      'App para Android e iOS, instalável pelo navegador',
    ],
    pricingTitle: 'Planos a partir de %{price} por mês',
    pricingText: 'Sem fidelidade: pague com Pix ou Boleto, por mês ou por ano.',
    pricingLink: 'Ver planos e preços',
  },
  pricing: {
    pageTitle: 'Preços: planos Basic, Business e Enterprise | Balcão',
    description:
      'Basic R$ 149, Business R$ 449 e Enterprise R$ 799 por mês. Agentes, linhas de WhatsApp e campanhas adicionais. Pague com Pix ou Boleto.',
    title: 'Planos e preços',
    lead: 'Escolha o plano da sua equipe. Você pode começar com o teste grátis e assinar quando quiser.',
    perMonth: '/mês',
    perYear: 'ou %{price} por ano',
    choose: 'Comece grátis',
    popular: 'Mais escolhido',
    features: {
      channels: 'Integração com WhatsApp, Telegram e Instagram',
      widget: 'Widget de chat com a sua marca',
      reports: 'Relatórios',
      unlimited: 'Conversas ilimitadas',
      app: 'App para Android e iOS',
      basicPlus: 'Tudo do Basic',
      bot: 'Bot personalizado',
      businessPlus: 'Tudo do Business',
      campaigns: 'Campanhas de WhatsApp',
    },
    agents: { one: '%{n} agente ativo', many: '%{n} agentes ativos' },
    lines: { one: '%{n} linha de WhatsApp', many: '%{n} linhas de WhatsApp' },
    campaigns: { none: 'Sem campanhas', one: '%{n} campanha em paralelo', many: '%{n} campanhas em paralelo' },
    custom: 'Plano personalizado',
    customText: 'Mais agentes, linhas ou condições especiais? Montamos um plano sob medida para a sua empresa.',
    contact: 'Fale conosco',
    contactTitle: 'Fale conosco',
    contactText: 'Fale com a nossa equipe para montar um plano sob medida para a sua empresa:',
    phone: 'Telefone',
    email: 'E-mail',
    close: 'Fechar',
    extrasTitle: 'Adicionais',
    extrasLead: 'Precisa de mais? Some ao plano o que faltar. O total é o preço do plano mais os adicionais.',
    extras: {
      agents: 'Agente adicional',
      whatsapp: 'Linha de WhatsApp adicional',
      campaign: 'Campanha em paralelo adicional',
    },
    extraPrice: '%{price} por mês',
    instagram: 'Contas de Instagram não têm custo adicional.',
    paymentTitle: 'Pagamento',
    payment: 'Pix ou Boleto',
    paymentText: 'Cobrança mensal ou anual, pré-paga, com renovação automática no mesmo dia.',
    filesTitle: 'Arquivos',
    files: 'Até 16 MB',
    filesText: 'Limite para enviar e receber arquivos em todas as plataformas.',
    annualTitle: 'Anual',
    annual: '%{n} mensalidades',
    annualText: 'O plano anual é pago de uma vez e custa %{n} vezes o valor mensal.',
    faqTitle: 'Perguntas frequentes',
    faq: [
      {
        q: 'Como funciona o teste grátis?',
        a: 'Você cria a conta e usa o Balcão por 30 dias, sem cartão de crédito, com todas as funcionalidades exceto Campanhas.',
      },
      {
        q: 'Posso fazer mais de um teste?',
        a: 'Não. O período de avaliação é de 7 dias por e-mail empresarial único: cada e-mail de empresa tem direito a um teste.',
      },
      {
        q: 'Quais são as formas de pagamento?',
        a: 'Pix ou Boleto. A cobrança é mensal ou anual, pré-paga, e renova automaticamente no mesmo dia do mês.',
      },
      {
        q: 'Qual é o tamanho máximo dos arquivos?',
        a: '16 MB para enviar e receber arquivos, em todas as plataformas.',
      },
      {
        q: 'Posso trocar de plano?',
        a: 'Sim. O tempo não usado do plano atual vira crédito; se o novo plano for mais caro, você paga a diferença.',
      },
      {
        q: 'E se eu cancelar?',
        a: 'Não há reembolso ao cancelar: o acesso continua até o fim do período já pago, sem novas cobranças.',
      },
      {
        q: 'Os preços podem mudar?',
        a: 'Qualquer mudança de preço é anunciada com 7 dias de antecedência.',
      },
      {
        q: 'Cada agente precisa do seu login?',
        a: 'Sim. Cada login é de uma pessoa; para mais pessoas atendendo, contrate agentes adicionais.',
      },
    ],
  },
  pages: {
    terms: {
      pageTitle: 'Termos de uso | Balcão',
      title: 'Termos de uso',
      description: 'Os termos de uso do Balcão: avaliação, cobrança, cancelamento, responsabilidades e o uso da caixa de entrada compartilhada.',
    },
    privacy: {
      pageTitle: 'Política de privacidade | Balcão',
      title: 'Política de privacidade',
      description: 'Como o Balcão trata os dados da sua empresa, da sua equipe e dos seus clientes, e como exercer os seus direitos.',
    },
    ganhoMais: {
      pageTitle: 'Ganhe mais: indique o Balcão e receba comissão | Balcão',
      title: 'Ganhe mais',
      description: 'Indique o Balcão: a empresa indicada ganha %{discount}% de desconto nas %{charges} primeiras mensalidades e você recebe %{commission}% do que ela pagar por %{months} meses.',
    },
    development: {
      pageTitle: 'Desenvolvimento sob medida | Balcão',
      title: 'Desenvolvimento sob medida',
      description: 'Contrate desenvolvimento sob medida para o seu atendimento e simule o valor do contrato.',
    },
  },
  channel: {
    cta: 'Comece grátis',
    ctaText: 'Teste grátis por 30 dias, sem cartão de crédito.',
    pricing: 'Ver preços',
    others: 'Outros canais',
  },
} as const;

/** `%{name}` placeholders, as in ui/src/i18n. */
export function fill(text: string, values: Record<string, string | number>): string {
  return text.replace(/%\{(\w+)\}/g, (_, k: string) => String(values[k] ?? ''));
}

export function plural(forms: { one: string; many: string }, n: number): string {
  return fill(n === 1 ? forms.one : forms.many, { n });
}
