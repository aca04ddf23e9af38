import { randomBytes, randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { botVersion, type BotRecord } from '../../../api/bots/queries';
import { MessageStatus, MessageType } from '../../../api/models/Message';
import { menuText } from '../../../workflows/bots/replies';
import { workflowIds } from '../../../workflows/ids';
import { BOT_TEXTS } from './bot';
import type { DemoConversation, Step } from './conversations';
import { timeline } from './history';
import type { GroupKey, Member, TagKey, Team } from './team';
import { prng } from '../prng';

/** How far back the older history reaches, in days (the reports' 90-day period on a clean clone). */
export const PAST_DAYS = 90;

/** America/Sao_Paulo, the workspace's time zone, has been UTC-3 all year since 2019. */
const SAO_PAULO_OFFSET_MS = 3 * 3_600_000;


const FIRST = ['Ana', 'Bruno', 'Camila', 'Diego', 'Elisa', 'Felipe', 'Giovana', 'Henrique', 'Isabela', 'Jorge', 'Larissa', 'Marcelo', 'Natália', 'Otávio', 'Paula', 'Rafael', 'Sabrina', 'Tiago', 'Vanessa', 'Wagner', 'Yasmin', 'Lucas', 'Renata', 'Gustavo'];
const LAST = ['Almeida', 'Barbosa', 'Cardoso', 'Dias', 'Ferreira', 'Moreira', 'Nascimento', 'Oliveira', 'Ribeiro', 'Santos', 'Silva', 'Vieira', 'Castro', 'Mendes', 'Araújo'];

/** What a visitor writes about, who takes it, the answers, and the tag it may get. */
interface Topic {
  group: GroupKey | null;
  agents: Member[];
  tag: TagKey;
  asks: string[];
  answers: string[];
  followUps: string[];
  closings: string[];
  /** The bot option that leads here, when the visitor meets the bot. */
  bot?: 'orders' | 'team';
}

const TOPICS: Topic[] = [
  {
    group: 'vendas',
    agents: ['supervisor', 'agent'],
    tag: 'orcamento',
    bot: 'orders',
    asks: ['Quanto custa um bolo para 20 pessoas?', 'Vocês fazem kit festa com salgados e docinhos?', 'Queria um orçamento de coffee break para 40 pessoas.', 'Fazem torta salgada por encomenda?'],
    answers: ['Fazemos sim! Me passa a data e o sabor que eu já te mando o valor.', 'Temos kits a partir de R$ 180,00. Para quando seria?', 'Claro! Vou montar a proposta e te envio por aqui mesmo.'],
    followUps: ['Seria para o próximo sábado.', 'Pode ser de frango com catupiry.', 'Perfeito, pode fechar.'],
    closings: ['Pedido anotado! Obrigado pela preferência.', 'Fechado, qualquer dúvida é só chamar.'],
  },
  {
    group: 'atendimento',
    agents: ['agent', 'restricted'],
    tag: 'entrega',
    bot: 'team',
    asks: ['Vocês entregam no meu bairro?', 'Meu pedido ainda não chegou, pode verificar?', 'Qual a taxa de entrega para o Centro?'],
    answers: ['Entregamos sim, a taxa fica R$ 8,00.', 'Vou verificar com o entregador agora mesmo.', 'Para o Centro a entrega é grátis acima de R$ 50,00.'],
    followUps: ['Ok, obrigado!', 'Chegou agora, obrigada.', 'Pode mandar então.'],
    closings: ['Nós que agradecemos! Bom apetite.', 'Qualquer coisa, estamos por aqui.'],
  },
  {
    group: 'atendimento',
    agents: ['agent', 'restricted'],
    tag: 'reclamacao',
    asks: ['O croissant de hoje veio murcho.', 'Fui mal atendido no balcão ontem.', 'Cobraram duas vezes no meu cartão.'],
    answers: ['Sinto muito! Vamos resolver isso agora.', 'Peço desculpas, vou verificar o que aconteceu.', 'Que chato! Já estou olhando aqui.'],
    followUps: ['Obrigada pela atenção.', 'Tudo bem, aguardo.', 'Resolvido, valeu.'],
    closings: ['Já estornamos o valor. Desculpe o transtorno!', 'Separamos um brinde para a sua próxima visita.'],
  },
  {
    group: null,
    agents: ['owner', 'admin'],
    tag: 'vip',
    asks: ['Bom dia! Queria fechar o café da manhã da empresa de novo este mês.', 'Podem reservar os pães de sempre para segunda?'],
    answers: ['Bom dia! Claro, mesmo pedido do mês passado?', 'Reservado! Pode passar a partir das 7h.'],
    followUps: ['Isso, o mesmo.', 'Combinado.'],
    closings: ['Tudo certo, obrigada pela confiança!', 'Até segunda!'],
  },
];

const menu = menuText({ ...BOT_TEXTS.menu, options: BOT_TEXTS.options.map((name) => ({ name })) });

/**
 * Three months of older history (docs/demo.md): a few hundred calls of other widget visitors, more on
 * weekdays, in business hours of São Paulo, answered minutes to an hour after they opened, some through the
 * bot, some tagged, all resolved; some visitors come back days later (a new call). Days 2 to PAST_DAYS
 * back, so every report period of a clean clone has figures, while the inbox's open list stays the
 * story of conversations.ts. Deterministic: the same PRNG seed, times relative to `now`.
 */
export function pastMonths(now: Date): DemoConversation[] {
  const rand = prng(20261128);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const between = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const hhmm = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
  // The wait for the first answer: mostly a few minutes, sometimes up to an hour.
  const firstWait = () => (rand() < 0.7 ? between(2, 15) : between(16, 60));

  const wallToday = new Date(now.getTime() - SAO_PAULO_OFFSET_MS);
  const conversations: DemoConversation[] = [];
  let n = 0;
  for (let daysAgo = PAST_DAYS; daysAgo >= 2; daysAgo--) {
    const weekday = new Date(Date.UTC(wallToday.getUTCFullYear(), wallToday.getUTCMonth(), wallToday.getUTCDate() - daysAgo)).getUTCDay();
    const count = weekday === 0 ? between(0, 1) : weekday === 6 ? between(1, 2) : between(2, 4);
    for (let i = 0; i < count; i++) {
      const topic = pick(TOPICS);
      const name = `${FIRST[n % FIRST.length]} ${LAST[Math.floor(n / FIRST.length) % LAST.length]}`;
      n++;
      const steps: Step[] = [];
      const call = (day: number) => {
        const agent = pick(topic.agents);
        const viaBot = topic.bot !== undefined && rand() < 0.3;
        steps.push({ at: { daysAgo: day, time: hhmm(between(8 * 60, 17 * 60 + 30)) }, say: viaBot ? 'Olá!' : pick(topic.asks) });
        if (viaBot) {
          steps.push({ after: 0, botStart: true }, { after: 0, bot: BOT_TEXTS.welcome }, { after: 0, bot: menu }, { after: 1, say: topic.bot === 'orders' ? '1' : '3' });
          steps.push({ after: 0, bot: topic.bot === 'orders' ? BOT_TEXTS.toSales : BOT_TEXTS.toTeam }, { after: 0, assign: { group: topic.group } }, { after: 0, botEnd: 'transferred' });
          steps.push({ after: 1, say: pick(topic.asks) }, { after: 0, assign: { agent } });
        } else {
          steps.push({ after: 0, assign: { group: topic.group, agent } });
        }
        steps.push({ after: firstWait(), reply: pick(topic.answers), by: agent });
        if (rand() < 0.6) steps.push({ after: between(1, 20), say: pick(topic.followUps) }, { after: between(1, 15), reply: pick(topic.closings), by: agent });
        if (rand() < 0.45) steps.push({ after: 0, tag: [topic.tag], by: agent });
        steps.push({ after: between(1, 30), resolve: agent });
      };
      call(daysAgo);
      // Some come back days later with something new: a new call, measured on its own.
      if (daysAgo >= 8 && rand() < 0.15) call(daysAgo - between(3, 6));
      conversations.push({ visitor: { name, ...(rand() < 0.4 ? { email: `${name.toLowerCase().normalize('NFD').replace(/[^a-z ]/g, '').replace(' ', '.')}@exemplo.com.br` } : {}) }, steps });
    }
  }
  return conversations;
}

interface CallPlan {
  conversation: number;
  openedAt: Date;
  operatorId: number | null;
  groupId: number | null;
  firstResponseAt: Date | null;
  waitingSince: Date | null;
  responseCount: number;
  responseTimeSumMs: number;
  finishedAt: Date | null;
  messages: { at: Date; sender: 'customer' | 'operator' | 'bot'; text: string; operatorId: number | null }[];
  tags: { labelId: number; operatorId: number; at: Date }[];
  bot?: { at: Date; finishedAt: Date | null };
}

/**
 * Writes the older history in a few statements, with the rows the app's commands would leave (the
 * pipeline's contact, conversation, visitor, inbound event and message; sendMessage's reply and the call's
 * first-response and waiting clocks; the bot runtime's session; the tag commands' call_labels; the resolve
 * command's finished call and conversation), at their moments. A few hundred calls through the commands
 * one by one take half a minute; npm start's first start must stay quick. Calls get the protocols 1..n in
 * the order they opened (renumberProtocols puts the story's calls among them afterwards). The report
 * facts come from rebuildReports, which the seed runs after the whole history.
 */
export async function writePastMonths(trx: Knex.Transaction, team: Team, bot: BotRecord, conversations: readonly DemoConversation[], now: Date): Promise<void> {
  const { workspaceId } = team;
  const channelId = team.widget.id;
  const calls: CallPlan[] = [];
  const visitors = conversations.map(() => randomUUID());
  const firstAt: Date[] = [];
  for (const [ci, c] of conversations.entries()) {
    let call: CallPlan | undefined;
    for (const { at, step } of timeline([c], now)) {
      firstAt[ci] ??= at;
      if ('say' in step) {
        if (!call || call.finishedAt) {
          call = { conversation: ci, openedAt: at, operatorId: null, groupId: null, firstResponseAt: null, waitingSince: null, responseCount: 0, responseTimeSumMs: 0, finishedAt: null, messages: [], tags: [] };
          calls.push(call);
        }
        call.waitingSince ??= at;
        call.messages.push({ at, sender: 'customer', text: step.say, operatorId: null });
        continue;
      }
      if (!call) throw new Error(`past conversation ${ci} must start with the visitor's message`);
      if ('reply' in step) {
        const operatorId = team.members[step.by].id;
        call.messages.push({ at, sender: 'operator', text: step.reply, operatorId });
        call.firstResponseAt ??= at;
        if (call.waitingSince) {
          call.responseCount++;
          call.responseTimeSumMs += Math.max(0, at.getTime() - call.waitingSince.getTime());
          call.waitingSince = null;
        }
      } else if ('bot' in step) call.messages.push({ at, sender: 'bot', text: step.bot, operatorId: null });
      else if ('botStart' in step) call.bot = { at, finishedAt: null };
      else if ('botEnd' in step) call.bot!.finishedAt = at;
      else if ('assign' in step) {
        if (step.assign.agent !== undefined) call.operatorId = step.assign.agent && team.members[step.assign.agent].id;
        if (step.assign.group !== undefined) call.groupId = step.assign.group && team.groups[step.assign.group];
      } else if ('tag' in step) {
        for (const key of step.tag) call.tags.push({ labelId: team.tags[key], operatorId: team.members[step.by].id, at });
      } else if ('resolve' in step) call.finishedAt = at;
      else throw new Error(`past conversation ${ci}: ${Object.keys(step).join()} is written through the commands only`);
    }
  }
  calls.sort((a, b) => a.openedAt.getTime() - b.openedAt.getTime() || a.conversation - b.conversation);

  const customers: { id: number; name: string }[] = await trx('customers')
    .insert(conversations.map((c, i) => ({ workspaceId, name: c.visitor.name, email: c.visitor.email ?? null, phone: c.visitor.phone ?? null, origin: 'visitor', createdAt: firstAt[i], updatedAt: firstAt[i] })))
    .returning(['id', 'name']);
  const customerId = new Map(customers.map((r) => [r.name, r.id]));
  await trx('widget_visitors').insert(visitors.map((visitorId, i) => ({ workspaceId, channelId, visitorId, tokenHash: randomBytes(32).toString('hex'), createdAt: firstAt[i], lastSeenAt: firstAt[i] })));
  const platforms: { id: number; externalId: string }[] = await trx('customer_platforms')
    .insert(conversations.map((c, i) => ({ workspaceId, channelId, customerId: customerId.get(c.visitor.name), externalId: visitors[i], createdAt: firstAt[i] })))
    .returning(['id', 'externalId']);
  const platformOf = new Map(platforms.map((r) => [r.externalId, r.id]));
  const cpId = (conversation: number) => platformOf.get(visitors[conversation]!)!;

  const callRows: { id: number; protocol: number }[] = await trx('calls')
    .insert(
      calls.map((k, i) => ({
        workspaceId,
        customerPlatformId: cpId(k.conversation),
        protocol: i + 1,
        operatorId: k.operatorId,
        groupId: k.groupId,
        createdAt: k.openedAt,
        firstResponseAt: k.firstResponseAt,
        waitingSince: k.waitingSince,
        responseCount: k.responseCount,
        responseTimeSumMs: k.responseTimeSumMs,
        finishedAt: k.finishedAt,
        isFinished: k.finishedAt !== null,
      })),
    )
    .returning(['id', 'protocol']);
  const callId = new Map(callRows.map((r) => [r.protocol, r.id]));
  const planOf = new Map(callRows.map((r) => [r.id, calls[r.protocol - 1]!]));

  const messages = calls.flatMap((k, i) =>
    k.messages.map((m) => ({
      workspaceId,
      channelId,
      customerPlatformId: cpId(k.conversation),
      callId: callId.get(i + 1),
      // Customer messages carry the widget's client id; the team's and the bot's get 'w-<id>' from the widget's adapter.
      externalId: m.sender === 'customer' ? `v:${visitors[k.conversation]}:${randomUUID()}` : `seed:${randomUUID()}`,
      content: JSON.stringify([{ insert: m.sender === 'bot' ? m.text : `${m.text}\n` }]),
      text: m.text,
      type: m.sender === 'bot' ? MessageType.BOT : MessageType.COMMON,
      status: MessageStatus.RECEIVED,
      operatorId: m.operatorId,
      sender: m.sender,
      idempotencyKey: m.sender === 'bot' ? `seed:${randomUUID()}` : null,
      createdAt: m.at,
      updatedAt: m.at,
    })),
  );
  const stored: { id: number; externalId: string; customerPlatformId: number; callId: number; sender: string }[] = [];
  for (let i = 0; i < messages.length; i += 1000) stored.push(...(await trx('messages').insert(messages.slice(i, i + 1000)).returning(['id', 'externalId', 'customerPlatformId', 'callId', 'sender'])));
  await trx.raw(`UPDATE messages SET external_id = 'w-' || id WHERE workspace_id = ? AND external_id LIKE 'seed:%'`, [workspaceId]);
  const customerMessages = stored.filter((m) => m.sender === 'customer');
  const byExternal = new Map(messages.map((m) => [m.externalId, m]));
  for (let i = 0; i < customerMessages.length; i += 1000) {
    await trx('inbound_events').insert(
      customerMessages.slice(i, i + 1000).map((m) => {
        const row = byExternal.get(m.externalId)!;
        const k = planOf.get(m.callId)!;
        const c = conversations[k.conversation]!;
        const message = {
          workspaceId,
          channelId,
          externalId: m.externalId,
          identity: { externalId: visitors[k.conversation], name: c.visitor.name, email: c.visitor.email ?? null, phone: c.visitor.phone ?? null },
          content: JSON.parse(row.content) as unknown,
          type: 0,
          sentAt: row.createdAt.toISOString(),
        };
        return {
          workspaceId,
          channelId,
          externalId: m.externalId,
          kind: 'message',
          payload: JSON.stringify({ message, result: { conversationId: m.customerPlatformId, messageId: m.id, callId: m.callId, duplicate: false } }),
          receivedAt: row.createdAt,
          processedAt: row.createdAt,
          publishedAt: row.createdAt,
          attempts: 1,
        };
      }),
    );
  }

  const sessions = calls.flatMap((k, i) =>
    k.bot
      ? [{ workspaceId, customerPlatformId: cpId(k.conversation), botId: bot.id, callId: callId.get(i + 1), workflowId: workflowIds.botSession(cpId(k.conversation)), status: k.bot.finishedAt ? 'transferred' : 'active', botVersion: botVersion(bot), createdAt: k.bot.at, finishedAt: k.bot.finishedAt }]
      : [],
  );
  if (sessions.length) await trx('bot_sessions').insert(sessions);
  const labels = calls.flatMap((k, i) => k.tags.map((t) => ({ workspaceId, callId: callId.get(i + 1), labelId: t.labelId, operatorId: t.operatorId, createdAt: t.at })));
  if (labels.length) await trx('call_labels').insert(labels);

  // Each conversation as its last call left it: assignee, group, preview, resolved.
  for (const [ci] of conversations.entries()) {
    const own = calls.map((k, i) => ({ k, id: callId.get(i + 1)! })).filter(({ k }) => k.conversation === ci);
    const { k, id } = own.at(-1)!;
    const last = k.messages.at(-1)!;
    const type = last.sender === 'bot' ? MessageType.BOT : MessageType.COMMON;
    await trx('customer_platforms')
      .where({ id: cpId(ci) })
      .update({
        operatorId: k.operatorId,
        groupId: k.groupId,
        currentCallId: id,
        isFinished: k.finishedAt !== null,
        hasNewMessages: false,
        lastMessage: JSON.stringify({ text: last.text, type, sender: last.sender, createdAt: last.at.toISOString() }),
        lastMessageAt: last.at,
        updatedAt: k.finishedAt ?? last.at,
      });
    await trx('widget_visitors').where({ channelId, visitorId: visitors[ci] }).update({ lastSeenAt: own.at(-1)!.k.messages.filter((m) => m.sender === 'customer').at(-1)!.at });
  }
}

/**
 * Gives the workspace's calls the protocols 1..n in the order they opened: the older history was written
 * with its own numbers first, the story's calls were numbered at commit after it. Two statements, since
 * (workspace, protocol) is unique at every row.
 */
export async function renumberProtocols(trx: Knex.Transaction, workspaceId: number): Promise<void> {
  await trx.raw('UPDATE calls SET protocol = -protocol WHERE workspace_id = ?', [workspaceId]);
  await trx.raw(
    `UPDATE calls SET protocol = o.n FROM (SELECT id, row_number() OVER (ORDER BY created_at, id) AS n FROM calls WHERE workspace_id = ?) o
     WHERE calls.id = o.id`,
    [workspaceId],
  );
}
