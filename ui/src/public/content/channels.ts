/**
 * Copy of the public channel pages (/whatsapp, /facebook, /telegram, /instagram, /email, /features, /bot).
 * Each text describes what the product does today (docs/channels/*.md, docs/bots*.md); nothing here promises
 * more. Images are real screenshots taken by scripts/siteScreenshots.ts (docs/public-site-content.md).
 */

export type ChannelPageKey = 'whatsapp' | 'facebook' | 'telegram' | 'instagram' | 'email' | 'features' | 'bot';

export interface SiteImage {
  src: string;
  alt: string;
  width: number;
  height: number;
}

export interface ChannelPage {
  key: ChannelPageKey;
  path: string;
  /** The page's <title>. */
  title: string;
  /** Meta description, at most 160 characters. */
  description: string;
  heading: string;
  lead: string;
  /** Inline SVG markup, 24×24 viewBox, drawn with currentColor. */
  iconSvg: string;
  /** Under /site/img/, WebP. */
  banner: SiteImage;
  sections: { title: string; text: string }[];
  screenshots: SiteImage[];
}

/** Size of every banner (also the og:image proportion). */
export const BANNER_SIZE = { width: 1200, height: 630 } as const;
/** Size of every screenshot below the sections. */
export const SCREENSHOT_SIZE = { width: 1200, height: 750 } as const;

const svg = (body: string): string =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" width="24" height="24" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true">${body}</svg>`;

const banner = (key: ChannelPageKey, alt: string): SiteImage => ({
  src: `/site/img/${key}-banner.webp`,
  alt,
  ...BANNER_SIZE,
});

const shot = (name: string, alt: string): SiteImage => ({
  src: `/site/img/${name}.webp`,
  alt,
  ...SCREENSHOT_SIZE,
});

export const CHANNEL_PAGES: ChannelPage[] = [
  {
    key: 'whatsapp',
    path: '/whatsapp',
    title: 'WhatsApp no Balcão: atendimento em equipe pelo mesmo número',
    description:
      'Conecte seu número de WhatsApp pelo QR Code ou pela API oficial da Meta e atenda em equipe, com histórico, etiquetas e relatórios.',
    heading: 'Seu WhatsApp atendido por toda a equipe',
    lead:
      'Conecte o número da empresa lendo um QR Code, como no WhatsApp Web, ou pela API oficial da Meta. As conversas chegam à caixa de entrada compartilhada e qualquer agente responde pelo mesmo número.',
    iconSvg: svg(
      '<path d="M4 20l1.3-3.9A8 8 0 1 1 8 19.2z"/><path d="M9.2 9.3c.3 1.8 1.7 3.2 3.5 3.6l.9-.9 1.6.8-.3 1.3c-2.9 0-5.4-2.4-5.5-5.3l1.3-.4.8 1.6z"/>',
    ),
    banner: banner('whatsapp', 'Caixa de entrada do Balcão com uma conversa de WhatsApp aberta'),
    sections: [
      {
        title: 'Duas formas de conectar',
        text:
          'Pelo QR Code o celular da empresa vira um aparelho conectado, e o Balcão reconecta sozinho quando a conexão cai. Pela API oficial (Cloud API) você informa os dados do app da Meta e recebe o endereço do webhook para colar no painel dela.',
      },
      {
        title: 'Mensagens completas',
        text:
          'Texto, respostas citadas, fotos, áudios e mensagens de voz, vídeos, documentos, figurinhas, localização e cartões de contato, em arquivos de até 16 MB. Os tiques de entregue e lido aparecem ao vivo, e o cliente vê “digitando…” enquanto o agente escreve.',
      },
      {
        title: 'Modelos da Meta fora da janela de 24 horas',
        text:
          'Nas linhas da API oficial, passadas 24 horas da última mensagem do cliente, o Balcão mostra os modelos aprovados na sua conta da Meta para você preencher as variáveis e enviar. O mesmo vale para iniciar uma conversa com um número novo.',
      },
      {
        title: 'Grupos, novas conversas e campanhas',
        text:
          'Receba mensagens de grupos quando quiser, inicie conversas com um número pela “Nova mensagem” e, no plano Enterprise, envie campanhas em lotes com intervalos entre as mensagens e descadastro por palavra-chave.',
      },
      {
        title: 'Status sempre à vista',
        text:
          'A página da linha mostra se ela está conectada, aguardando o QR Code ou desconectada, e um aviso aparece para a equipe quando uma linha cai, com o atalho para reconectar.',
      },
    ],
    screenshots: [
      shot('whatsapp-settings', 'Tela de cadastro de uma linha de WhatsApp, com a escolha entre QR Code e API oficial'),
    ],
  },
  {
    key: 'facebook',
    path: '/facebook',
    title: 'Facebook Messenger no Balcão: as mensagens da sua página em equipe',
    description:
      'Conecte as páginas do Facebook que você administra e responda às mensagens do Messenger na mesma caixa de entrada dos outros canais.',
    heading: 'As mensagens da sua página do Facebook na caixa de entrada',
    lead:
      'Entre com o Facebook, escolha as páginas que você administra e cada uma vira um canal. Quem escreve para a página pelo Messenger aparece na caixa de entrada, com nome e foto.',
    iconSvg: svg(
      '<path d="M12 3.5c-4.7 0-8.5 3.5-8.5 7.9 0 2.5 1.2 4.7 3.2 6.1V21l3-1.7c.7.2 1.5.3 2.3.3 4.7 0 8.5-3.5 8.5-7.9S16.7 3.5 12 3.5z"/><path d="M7.5 13.5l3-3.2 2 2 3-3.2"/>',
    ),
    banner: banner('facebook', 'Caixa de entrada do Balcão com uma conversa do Messenger aberta'),
    sections: [
      {
        title: 'Conexão pelo login do Facebook',
        text:
          'Você entra com a sua conta, o Balcão lista as páginas que você administra e você escolhe quais conectar. Nenhuma senha fica guardada: o acesso à página é guardado cifrado e pode ser renovado conectando a página de novo.',
      },
      {
        title: 'O que chega',
        text:
          'Textos, imagens, vídeos, áudios, arquivos e figurinhas (guardados no Balcão), compartilhamentos como links e os cliques em botões. Entregue e lido aparecem nas suas mensagens, e o que alguém responder pelo app da Meta também fica no histórico.',
      },
      {
        title: 'A janela de 24 horas, avisada antes',
        text:
          'O Messenger só deixa a página responder até 24 horas depois da última mensagem do cliente. O campo de resposta avisa quando a janela está para fechar ou já fechou, antes de o agente escrever.',
      },
    ],
    screenshots: [
      shot('facebook-settings', 'Tela de canais do Balcão com a página do Facebook, a conta do Instagram e os outros canais conectados'),
    ],
  },
  {
    key: 'telegram',
    path: '/telegram',
    title: 'Telegram no Balcão: o seu bot atendido pela equipe',
    description:
      'Crie um bot no @BotFather, cole o token no Balcão e atenda as conversas do Telegram em equipe, com arquivos, respostas e edições.',
    heading: 'Atenda pelo Telegram com o bot da sua empresa',
    lead:
      'Crie um bot no @BotFather, cole o token no Balcão e pronto: o Balcão registra o webhook no Telegram e as conversas chegam à caixa de entrada. Não há nada para copiar de volta.',
    iconSvg: svg('<path d="M21 4L3 11l6 2.2L11 20l3.2-4.3L19 19z"/><path d="M9 13.2l8-6.2"/>'),
    banner: banner('telegram', 'Caixa de entrada do Balcão com uma conversa do Telegram aberta'),
    sections: [
      {
        title: 'Configuração em um passo',
        text:
          'O token do bot é conferido com o Telegram na hora de salvar e fica guardado cifrado. Se você gerar um token novo no @BotFather, basta colá-lo na página da linha para reconectar.',
      },
      {
        title: 'Mensagens como o cliente mandou',
        text:
          'Texto, fotos, documentos, áudios, mensagens de voz, vídeos, figurinhas, localização e contatos. Quando o cliente edita uma mensagem, a nova versão aparece marcada como “editada”; respostas citadas mantêm a citação dos dois lados.',
      },
      {
        title: 'Respostas da equipe',
        text:
          'Os agentes respondem com texto, arquivos e mensagens de voz, apagam o que enviaram e o cliente vê “digitando…”. Se o cliente bloquear o bot, a mensagem mostra que não foi entregue.',
      },
    ],
    screenshots: [
      shot('telegram-settings', 'Tela de cadastro de uma linha de Telegram com o campo do token do bot'),
    ],
  },
  {
    key: 'instagram',
    path: '/instagram',
    title: 'Instagram Direct no Balcão: mensagens diretas em equipe',
    description:
      'Conecte a conta profissional do Instagram ligada à sua página do Facebook e responda ao Direct, com respostas aos stories, na caixa de entrada.',
    heading: 'O Direct do Instagram na caixa de entrada da equipe',
    lead:
      'Conecte a conta profissional do Instagram ligada a uma página do Facebook que você já conectou. As mensagens diretas passam a chegar ao Balcão, sem pedir o usuário nem a senha do Instagram.',
    iconSvg: svg(
      '<rect x="3.5" y="3.5" width="17" height="17" rx="5"/><circle cx="12" cy="12" r="4"/><circle cx="17.2" cy="6.8" r=".6" fill="currentColor"/>',
    ),
    banner: banner('instagram', 'Caixa de entrada do Balcão com uma conversa do Instagram Direct aberta'),
    sections: [
      {
        title: 'Conectado pela página',
        text:
          'O Balcão lista as contas profissionais do Instagram ligadas às páginas do Facebook do workspace e você conecta com um clique. O acesso é o da página, guardado cifrado.',
      },
      {
        title: 'Stories, reels e respostas',
        text:
          'Respostas e menções aos seus stories chegam com o link do story, reels chegam como links, e fotos, vídeos, áudios e arquivos ficam guardados no Balcão. O agente pode responder citando uma mensagem.',
      },
      {
        title: 'As mesmas regras do Messenger',
        text:
          'O Instagram também só deixa responder até 24 horas depois da última mensagem do cliente, e o campo de resposta avisa antes de o agente escrever.',
      },
    ],
    screenshots: [
      shot('instagram-contacts', 'Lista de contatos do Balcão com a origem de cada um: Instagram, Messenger, WhatsApp, Telegram, e-mail e chat do site'),
    ],
  },
  {
    key: 'email',
    path: '/email',
    title: 'E-mail no Balcão: a caixa de atendimento junto com os outros canais',
    description:
      'Encaminhe a caixa de e-mail da empresa para o Balcão e responda em equipe, na mesma conversa, com anexos e o histórico do cliente.',
    heading: 'Os e-mails de atendimento junto com o chat',
    lead:
      'O Balcão cria um endereço de encaminhamento para o canal. Configure a caixa da empresa (Gmail, Outlook ou servidor próprio) para encaminhar a ele e responda aos clientes por e-mail, de dentro da caixa de entrada.',
    iconSvg: svg('<rect x="3" y="5" width="18" height="14" rx="2"/><path d="M3.5 6.5l8.5 6.5 8.5-6.5"/>'),
    banner: banner('email', 'Caixa de entrada do Balcão com uma conversa de e-mail aberta'),
    sections: [
      {
        title: 'Cada assunto na sua conversa',
        text:
          'As respostas do cliente voltam para a mesma conversa pelo encadeamento do e-mail, e uma nova mensagem dele abre uma conversa nova no mesmo contato. Respostas automáticas e devoluções não disparam bots nem distribuição.',
      },
      {
        title: 'HTML com segurança',
        text:
          'O e-mail aparece formatado, isolado do resto da tela e sem scripts. Imagens externas ficam bloqueadas até alguém clicar em “Mostrar imagens”, para que nenhum pixel de rastreamento seja carregado sem querer.',
      },
      {
        title: 'Respostas com anexos, pelo seu servidor se preferir',
        text:
          'As respostas saem com “Re:” do assunto e os arquivos do agente como anexos de até 16 MB. Você pode definir o nome e o e-mail do remetente e enviar pelo servidor SMTP da própria empresa.',
      },
    ],
    screenshots: [
      shot('email-settings', 'Tela do canal de e-mail com o endereço de encaminhamento e as opções de envio'),
    ],
  },
  {
    key: 'features',
    path: '/features',
    title: 'Chat do site: o widget do Balcão para o seu site',
    description:
      'Cole uma linha de código no seu site e receba os visitantes no chat, com a cor, o logo, o horário de atendimento e o formulário que você escolher.',
    heading: 'Um chat no seu site, com a cara da sua empresa',
    lead:
      'Cole uma linha de código no seu site e os visitantes conversam com a equipe por um botão flutuante. O widget é leve, carrega sem atrasar a página e usa a cor e o logo da sua empresa.',
    iconSvg: svg(
      '<rect x="3" y="4" width="18" height="13" rx="2"/><path d="M8 21h8M12 17v4"/><path d="M7.5 9.5h6M7.5 12.5h4"/><circle cx="16.5" cy="12.5" r="1.5"/>',
    ),
    banner: banner('features', 'Página de teste do widget com o chat aberto e a conversa com o bot'),
    sections: [
      {
        title: 'Personalize sem programar',
        text:
          'Escolha a cor principal, o logo, o lado da tela, a saudação e a frase sob o nome da empresa. Peça nome, e-mail ou telefone antes da conversa, cada um opcional ou obrigatório.',
      },
      {
        title: 'Horário e tempo de resposta',
        text:
          'Ligue o widget a um horário comercial para mostrar a sua mensagem de fora do horário, e mostre “Respondemos em cerca de X minutos”, calculado com o tempo real de primeira resposta dos últimos 7 dias.',
      },
      {
        title: 'Conversa completa para o visitante',
        text:
          'Mensagens ao vivo, arquivos de até 16 MB com prévia de imagens, “digitando…” enquanto o agente escreve e aviso de mensagens não lidas. O visitante volta dias depois e encontra a conversa.',
      },
      {
        title: 'Só no seu site',
        text:
          'Limite os sites em que o widget funciona e ele não abre em páginas de terceiros. Antes de instalar, teste tudo na página de teste do próprio Balcão.',
      },
    ],
    screenshots: [
      shot('features-settings', 'Configurações do chat do site: cor, saudação e subtítulo, com a pré-visualização do widget ao lado'),
    ],
  },
  {
    key: 'bot',
    path: '/bot',
    title: 'Bot do Balcão: fluxos de atendimento com passagem para a equipe',
    description:
      'Monte o bot no editor visual: mensagens, menus, perguntas com validação, etiquetas, chamadas à sua API e transferência para um agente ou grupo.',
    heading: 'Um bot que resolve o simples e passa o resto para a equipe',
    lead:
      'Desenhe o atendimento em caminhos, no editor visual: o bot cumprimenta, oferece um menu, faz perguntas e, quando precisa, transfere a conversa para um agente ou para um grupo.',
    iconSvg: svg(
      '<rect x="4.5" y="8" width="15" height="11" rx="3"/><path d="M12 8V4.5"/><circle cx="12" cy="4" r="1"/><circle cx="9.5" cy="13" r="1"/><circle cx="14.5" cy="13" r="1"/><path d="M2.5 12.5v2M21.5 12.5v2"/>',
    ),
    banner: banner('bot', 'Editor de bots do Balcão com os caminhos do bot de atendimento'),
    sections: [
      {
        title: 'Editor visual de caminhos',
        text:
          'Cada caminho é uma sequência de ações: mensagem, menu numerado, pergunta com validação (texto, número, e-mail, telefone, data ou CPF), etiqueta, chamada a uma API, encerramento e transferência. O editor confere o fluxo antes de salvar.',
      },
      {
        title: 'Passagem para a equipe',
        text:
          'A ação de transferência entrega a conversa a um agente ou a um grupo, seguindo o rodízio do canal. O agente também pode assumir a qualquer momento: a primeira resposta dele encerra o bot.',
      },
      {
        title: 'Quando e para quem',
        text:
          'Escolha os canais, o horário comercial, a prioridade entre bots e se o bot atende todos os contatos, só os não cadastrados ou só os cadastrados. Com a expiração ligada, a conversa é encerrada quando o cliente some.',
      },
      {
        title: 'Feito para não perder mensagens',
        text:
          'Cada conversa com o bot roda como um fluxo durável no Temporal: se um servidor reinicia, o bot continua de onde parou, sem repetir nem perder mensagens.',
      },
    ],
    screenshots: [
      shot('bot-inbox', 'Conversa do chat do site em que o bot apresentou o menu e passou a cliente para a equipe de Vendas'),
    ],
  },
];

export function channelPage(key: ChannelPageKey): ChannelPage {
  const page = CHANNEL_PAGES.find((p) => p.key === key);
  if (!page) throw new Error(`unknown channel page ${key}`);
  return page;
}
