import type { GroupKey, Member, TagKey } from './team';
import { BOT_TEXTS } from './bot';
import { menuText } from '../../../workflows/bots/replies';

/** When a step happens: a day and local time (America/Sao_Paulo) some days back, or minutes before now. */
export type At = { daysAgo: number; time: string } | { minutesAgo: number };

/** The files the history sends (scripts/lib/seed/files.ts makes their bytes). */
export type DemoFile = 'cardapio';

/** One thing that happened in a conversation, `after` minutes after the previous step (2 by default) or `at` a set time. */
export type Step = { after?: number; at?: At } & (
  | { say: string }
  | { reply: string; by: Member }
  | { note: string; by: Member }
  | { file: DemoFile; by: Member }
  | { bot: string }
  | { botStart: true }
  | { botEnd: 'transferred' }
  | { assign: { agent?: Member | null; group?: GroupKey | null } }
  | { tag: TagKey[]; by: Member }
  | { resolve: Member }
);

export interface DemoConversation {
  visitor: { name: string; email?: string; phone?: string };
  /** Who has it in 'Favoritos'. */
  starredBy?: Member[];
  steps: Step[];
}

const menu = menuText({ ...BOT_TEXTS.menu, options: BOT_TEXTS.options.map((name) => ({ name })) });

/**
 * The demo's history: widget visitors of a bakery over the last three weeks, oldest first. Each
 * conversation starts with the visitor's first message at its first step's `at`; the states it ends in
 * (open or resolved, assignee, group, tags, notes, favourites) are what the inbox shows.
 */
export const CONVERSATIONS: DemoConversation[] = [
  {
    visitor: { name: 'Mariana Costa', email: 'mariana.costa@gmail.com', phone: '+5511987654321' },
    starredBy: ['owner', 'supervisor'],
    steps: [
      { at: { daysAgo: 21, time: '09:12' }, say: 'Bom dia! Vocês fazem bolo de aniversário por encomenda?' },
      { assign: { group: 'vendas', agent: 'supervisor' } },
      { after: 4, reply: 'Bom dia, Mariana! Fazemos sim. Para quantas pessoas e para qual data?', by: 'supervisor' },
      { after: 3, say: 'Para umas 30 pessoas, no sábado dia 14. Queria de chocolate com morango.' },
      { after: 5, reply: 'Perfeito! Um bolo de 3 kg serve bem 30 pessoas. Fica R$ 240,00, com retirada a partir das 9h.', by: 'supervisor' },
      { after: 1, note: 'Cliente quer bolo de 3 kg para sábado; confirmar o recheio de morango com a confeitaria.', by: 'supervisor' },
      { after: 6, say: 'Fechado! Posso pagar na retirada?' },
      { after: 2, reply: 'Pode sim, aceitamos Pix e cartão. Já deixei anotado. Obrigado!', by: 'supervisor' },
      { tag: ['orcamento'], by: 'supervisor' },
      { after: 1, resolve: 'supervisor' },
      // Two days ago she came back: a new call, with a new protocol.
      { at: { daysAgo: 2, time: '16:40' }, say: 'Oi! O bolo ficou lindo, todo mundo amou 😍 Quero encomendar outro para o mês que vem.' },
      { assign: { group: 'vendas', agent: 'supervisor' } },
      { after: 1, tag: ['vip'], by: 'supervisor' },
    ],
  },
  {
    visitor: { name: 'João Pereira', email: 'joao.pereira@outlook.com' },
    steps: [
      { at: { daysAgo: 18, time: '07:35' }, say: 'Meu pedido de pães para o café da empresa era para as 7h e até agora nada.' },
      { assign: { group: 'atendimento', agent: 'agent' } },
      { after: 3, reply: 'Bom dia, João. Peço desculpas pelo atraso! Vou verificar com o entregador agora mesmo.', by: 'agent' },
      { after: 2, note: 'Entregador ficou preso no trânsito da Av. Brasil; chega em 15 min.', by: 'agent' },
      { after: 1, reply: 'O entregador já está a caminho e chega em até 15 minutos. Vamos descontar a taxa de entrega deste pedido.', by: 'agent' },
      { after: 20, say: 'Chegou. Obrigado pelo desconto.' },
      { tag: ['reclamacao', 'entrega'], by: 'agent' },
      { after: 2, reply: 'Nós que agradecemos a paciência, João. Bom café a todos!', by: 'agent' },
      { after: 1, resolve: 'agent' },
    ],
  },
  {
    visitor: { name: 'Eduardo Ramos' },
    steps: [
      { at: { daysAgo: 15, time: '18:02' }, say: 'Vocês abrem no feriado de quinta?' },
      { assign: { group: 'atendimento', agent: 'agent' } },
      { after: 6, reply: 'Olá, Eduardo! No feriado abrimos das 7h às 12h, como no domingo.', by: 'agent' },
      { after: 2, say: 'Ótimo, obrigado!' },
      { after: 1, resolve: 'agent' },
    ],
  },
  {
    visitor: { name: 'Fernanda Lima', email: 'fernanda@lima-eventos.com.br', phone: '+5511912345678' },
    steps: [
      { at: { daysAgo: 12, time: '14:20' }, say: 'Boa tarde! Preciso de um orçamento de salgados para um evento de 50 pessoas.' },
      { assign: { group: 'vendas', agent: 'supervisor' } },
      { after: 8, reply: 'Boa tarde, Fernanda! Segue o nosso cardápio de encomendas com os preços por cento.', by: 'supervisor' },
      { after: 1, file: 'cardapio', by: 'supervisor' },
      { after: 15, say: 'Vou querer 300 salgados sortidos e 100 docinhos. Dá para entregar na sexta às 18h?' },
      { after: 4, reply: 'Dá sim! O total fica R$ 520,00 com a entrega. Confirmo o pedido?', by: 'supervisor' },
      { after: 10, say: 'Pode confirmar, obrigada!' },
      { tag: ['orcamento'], by: 'supervisor' },
      { after: 1, note: 'Pedido confirmado: 300 salgados + 100 docinhos, sexta 18h, endereço no cadastro.', by: 'supervisor' },
      { after: 1, resolve: 'supervisor' },
    ],
  },
  {
    visitor: { name: 'Carlos Souza' },
    steps: [
      { at: { daysAgo: 9, time: '10:05' }, say: 'Vocês têm pão sem glúten?' },
      { assign: { group: 'atendimento', agent: 'agent' } },
      { after: 5, reply: 'Olá, Carlos! Temos pão de forma sem glúten às terças e sextas. Quer que eu separe um para você?', by: 'agent' },
      { after: 3, say: 'Quero sim, passo na sexta de manhã.' },
      { after: 2, reply: 'Combinado, fica separado no seu nome. 😉', by: 'agent' },
      { after: 1, resolve: 'agent' },
    ],
  },
  {
    visitor: { name: 'Patrícia Alves', phone: '+5511955554444' },
    steps: [
      { at: { daysAgo: 6, time: '11:30' }, say: 'Oi, fiz um pedido para entrega hoje à tarde e preciso mudar o endereço.' },
      { assign: { group: 'atendimento', agent: 'restricted' } },
      { after: 4, reply: 'Olá, Patrícia! Claro, qual é o novo endereço?', by: 'restricted' },
      { after: 2, say: 'Rua Augusta, 1500, apto 42.' },
      { after: 3, reply: 'Alterado! A entrega continua prevista para as 15h.', by: 'restricted' },
      { tag: ['entrega'], by: 'restricted' },
      { after: 1, resolve: 'restricted' },
    ],
  },
  {
    visitor: { name: 'Gabriela Teixeira', email: 'gabi.teixeira@yahoo.com.br' },
    starredBy: ['owner'],
    steps: [
      { at: { daysAgo: 5, time: '08:15' }, say: 'O pão de fermentação natural que comprei ontem estava duro. Fiquei bem chateada.' },
      { assign: { agent: 'owner' } },
      { after: 12, reply: 'Gabriela, sinto muito! Não é o padrão da casa. Posso trocar o pão ou devolver o valor, como preferir.', by: 'owner' },
      { after: 2, note: 'Enviei um vale-presente de R$ 20; aguardando ela confirmar se prefere a troca.', by: 'admin' },
      { tag: ['reclamacao'], by: 'owner' },
      { after: 30, say: 'Prefiro a troca. Posso passar amanhã?' },
      { after: 5, reply: 'Pode sim! Deixamos um pão fresquinho separado no seu nome, é só falar no caixa.', by: 'owner' },
    ],
  },
  {
    visitor: { name: 'Ricardo Gomes', email: 'ricardo.gomes@techsul.com.br', phone: '+5511933332222' },
    starredBy: ['owner'],
    steps: [
      { at: { daysAgo: 4, time: '15:45' }, say: 'Olá! Queremos café da manhã para 30 funcionários toda segunda-feira. Vocês fazem contrato mensal?' },
      { assign: { group: 'vendas', agent: 'admin' } },
      { after: 10, reply: 'Olá, Ricardo! Fazemos sim. Vou montar uma proposta com pães, frios, frutas e café para 30 pessoas.', by: 'admin' },
      { after: 2, note: 'Empresa com 30 funcionários; oferecer 10% de desconto no contrato mensal.', by: 'admin' },
      { tag: ['vip', 'orcamento'], by: 'admin' },
      { after: 3, reply: 'Envio a proposta até amanhã no seu e-mail. Alguma restrição alimentar na equipe?', by: 'admin' },
    ],
  },
  {
    visitor: { name: 'Luciana Martins' },
    steps: [
      { at: { daysAgo: 1, time: '19:10' }, say: 'Oi, boa noite' },
      { after: 0, botStart: true },
      { after: 0, bot: BOT_TEXTS.welcome },
      { after: 0, bot: menu },
      { after: 1, say: '3' },
      { after: 0, bot: BOT_TEXTS.toTeam },
      { after: 0, assign: { group: 'atendimento' } },
      { after: 0, botEnd: 'transferred' },
      { after: 2, say: 'Queria saber se vocês aceitam vale-refeição.' },
    ],
  },
  {
    visitor: { name: 'Thiago Rocha' },
    steps: [{ at: { minutesAgo: 40 }, say: 'Vocês entregam no bairro Jardim América?' }],
  },
  {
    visitor: { name: 'Beatriz Nunes', email: 'bia.nunes@gmail.com' },
    steps: [
      { at: { minutesAgo: 15 }, say: 'Olá!' },
      { after: 0, botStart: true },
      { after: 0, bot: BOT_TEXTS.welcome },
      { after: 0, bot: menu },
      { after: 1, say: '1' },
      { after: 0, bot: BOT_TEXTS.orders },
      { after: 0, bot: BOT_TEXTS.toSales },
      { after: 0, assign: { group: 'vendas' } },
      { after: 0, botEnd: 'transferred' },
      { after: 2, say: 'Quero uma torta de limão para amanhã às 10h, dá tempo?' },
    ],
  },
];
