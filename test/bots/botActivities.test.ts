import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { createActivities } from '../../activities';
import { loadConfig } from '../../api/config';
import { createLogger } from '../../api/logger';
import { testDatabase } from '../helpers/db';
import { makeWorkspace } from '../helpers/factories';
import { makeChannel } from '../inbox/factories';
import { RecordingPublisher } from '../workflows/subscription/rows';
import { act, botTexts, makeBot, makeBotConversation, openBotSession, path as botPath } from './support';

describe('bot activities: idempotency keys', () => {
  let knex: Knex;
  let publisher: RecordingPublisher;
  let activities: ReturnType<typeof createActivities>;
  const config = loadConfig({ DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'balcao-bot-act-')), JWT_SECRET: 'x'.repeat(48), MQTT_INTERNAL_PASSWORD: 'x' });

  before(async () => {
    ({ knex } = await testDatabase());
  });
  beforeEach(() => {
    publisher = new RecordingPublisher();
    activities = createActivities({ knex, publisher, logger: createLogger('silent'), config });
  });

  async function session() {
    const ws = await makeWorkspace(knex);
    const channel = await makeChannel(knex, ws);
    const deps = { knex, logger: createLogger('silent'), publisher, config };
    const r = await makeBotConversation(deps, channel);
    const bot = await makeBot(knex, ws, { channels: [], paths: [botPath('Início', [act.message('Oi')])] });
    const input = await openBotSession(knex, ws, r.conversationId, r.callId, bot);
    publisher.events.length = 0;
    return { ws, channel, input, ref: { workspaceId: ws.id, conversationId: r.conversationId, sessionId: input.sessionId } };
  }

  it('a retried send stores and delivers the message once', async () => {
    const { channel, ref } = await session();
    const first = await activities.botSend({ ...ref, key: 'k#1', text: 'Olá!' });
    const again = await activities.botSend({ ...ref, key: 'k#1', text: 'Olá!' });
    expect(again).to.deep.equal(first);
    expect(first.active).to.equal(true);
    expect(await botTexts(knex, ref.conversationId)).to.deep.equal(['Olá!']);
    const toVisitor = publisher.events.filter((e) => e.topic.startsWith(`widget/${channel.identifier}/`));
    expect(toVisitor).to.have.length(1);
    await activities.botSend({ ...ref, key: 'k#2', text: 'Olá!' });
    expect(await botTexts(knex, ref.conversationId)).to.deep.equal(['Olá!', 'Olá!']);
  });

  it('a message stored but not yet taken by the channel is delivered by the retry, still once stored', async () => {
    const { channel, ref } = await session();
    await activities.botSend({ ...ref, key: 'k#1', text: 'Olá!' });
    // As if the first attempt died between the commit and the channel.
    await knex('messages').where({ customerPlatformId: ref.conversationId, type: 3 }).update({ status: 1, externalId: null });
    publisher.events.length = 0;
    await activities.botSend({ ...ref, key: 'k#1', text: 'Olá!' });
    expect(await knex('messages').where({ customerPlatformId: ref.conversationId, type: 3 }).pluck('status')).to.deep.equal([2]);
    expect(publisher.events.filter((e) => e.topic.startsWith(`widget/${channel.identifier}/`))).to.have.length(1);
  });

  it('a closed session sends nothing and says so; ending twice changes nothing', async () => {
    const { ref } = await session();
    await activities.botEnd({ ...ref, status: 'finished' });
    expect(await knex('bot_sessions').where({ id: ref.sessionId }).first('status')).to.deep.equal({ status: 'finished' });
    expect(await activities.botSend({ ...ref, key: 'k#1', text: 'Tarde demais' })).to.deep.equal({ active: false, messageId: 0 });
    await activities.botEnd({ ...ref, status: 'failed' });
    expect(await knex('bot_sessions').where({ id: ref.sessionId }).first('status')).to.deep.equal({ status: 'finished' });
    expect(await botTexts(knex, ref.conversationId)).to.deep.equal([]);
  });
});
