import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { BotActionInput } from '../../api/bots/schema';
import { BotSchema, type BotInput } from '../../api/bots/schema';
import { loadBot, type BotRecord } from '../../api/bots/queries';
import { openSession } from '../../api/bots/runtime/sessionRows';
import type { BotSessionInput } from '../../workflows/bots/botSession';
import { receiveInbound, type InboundDeps } from '../../api/inbound/receiveInbound';
import type { TestWorkspace } from '../helpers/factories';
import { inboundMessage, type TestChannel } from '../inbox/factories';

/** Builders for bot definitions: every action and path gets a fresh guid. */
export const guid = () => randomUUID();

type Body<T extends BotActionInput['type']> = Omit<Extract<BotActionInput, { type: T }>, 'guid' | 'type'>;
export const act = {
  message: (text: string) => ({ guid: guid(), type: 'message' as const, text }),
  input: (a: Body<'input'>) => ({ guid: guid(), type: 'input' as const, ...a }),
  menu: (a: Body<'menu'>) => ({ guid: guid(), type: 'menu' as const, ...a }),
  goto: (goToPath: string) => ({ guid: guid(), type: 'goto' as const, goToPath }),
  path: (goToPath: string) => ({ guid: guid(), type: 'path' as const, goToPath }),
  agent: (a: Body<'agent'>) => ({ guid: guid(), type: 'agent' as const, ...a }),
  integration: (a: Body<'integration'>) => ({ guid: guid(), type: 'integration' as const, ...a }),
  resolve: (text = '') => ({ guid: guid(), type: 'resolve' as const, text }),
  tag: (tag: number, text = '') => ({ guid: guid(), type: 'tag' as const, tag, text }),
};
export const option = (name: string, goTo: string | null) => ({ guid: guid(), name, goTo });
export const path = (name: string, actions: BotActionInput[], id = guid()) => ({ guid: id, name, actions });

/** A bot row as the bot CRUD stores it (BotSchema-parsed, columns + definition). */
export async function makeBot(knex: Knex, ws: TestWorkspace, bot: Partial<BotInput> & Pick<BotInput, 'paths'>): Promise<BotRecord> {
  const parsed = BotSchema.parse({
    name: 'Bot de teste',
    isActive: true,
    priority: 0,
    channels: [],
    businessHours: [],
    userType: 'all',
    expire: { enabled: false, hours: 0, minutes: 1, message: '' },
    layout: {},
    ...bot,
  });
  const [row] = await knex('bots')
    .insert({
      workspaceId: ws.id,
      name: parsed.name,
      isActive: parsed.isActive,
      priority: parsed.priority,
      userType: parsed.userType,
      definition: JSON.stringify({ channels: parsed.channels, businessHours: parsed.businessHours, expire: parsed.expire, paths: parsed.paths, layout: parsed.layout }),
    })
    .returning('id');
  return (await loadBot(knex, ws.id, row.id))!;
}

/** A conversation with an open call, created through receiveInbound before any bot exists. */
export async function makeBotConversation(deps: InboundDeps, channel: TestChannel, identity: { name?: string; email?: string } = {}) {
  const msg = inboundMessage(channel);
  return receiveInbound(deps, { ...msg, identity: { ...msg.identity, ...identity } });
}

/** Opens a session row for `bot` on the conversation (as the API does) and returns the workflow input. */
export async function openBotSession(knex: Knex, ws: TestWorkspace, conversationId: number, callId: number, bot: BotRecord): Promise<BotSessionInput> {
  return knex.transaction((trx) => openSession(trx, { workspaceId: ws.id, conversationId, callId }, bot));
}

/** Texts of the conversation's bot messages, oldest first. */
export async function botTexts(knex: Knex, conversationId: number): Promise<string[]> {
  const rows: { text: string }[] = await knex('messages').where({ customerPlatformId: conversationId, type: 3 }).orderBy('id').select('text');
  return rows.map((r) => r.text);
}

/** Polls until `check` returns a value that is not undefined/false (real time, 20 s: Temporal on a busy machine). */
export async function eventually<T>(check: () => Promise<T | undefined | false>, what = 'condition', timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Waits until the conversation has `n` bot messages and returns their texts. */
export function botMessagesCount(knex: Knex, conversationId: number, n: number, timeoutMs = 20_000): Promise<string[]> {
  return eventually(
    async () => {
      const texts = await botTexts(knex, conversationId);
      return texts.length >= n ? texts : undefined;
    },
    `${n} bot messages`,
    timeoutMs,
  );
}

export async function sessionStatus(knex: Knex, sessionId: number): Promise<string> {
  return (await knex('bot_sessions').where({ id: sessionId }).first('status')).status;
}
