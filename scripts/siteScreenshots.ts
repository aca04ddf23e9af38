/**
 * Real screenshots of the product for the public site (docs/public-site-content.md "Screenshots"). Run by hand
 * against a running, throwaway `npm start` instance:
 *
 *   DATA_DIR=/tmp/shots/data EMBEDDED_PG_PORT=54600 SMTP_PORT=2800 BALCAO_URL=http://localhost:3300 \
 *     node --import tsx scripts/siteScreenshots.ts
 *
 * 1. Showcase: adds to the demo workspace one conversation on each channel the demo lacks (a WhatsApp Cloud
 *    line, a Telegram bot, a Facebook page, its Instagram account and an e-mail channel), through the app's
 *    own code: channels as their create commands store them (no provider is called), customer messages
 *    through the inbound pipeline every channel hands to (the e-mail one as a real mail to the instance's
 *    SMTP server), replies through sendMessage, then marked as delivered (there is no provider to deliver
 *    to). Skipped when the showcase is already there, so the script can run again.
 * 2. Shots: logs in as the demo owner in Chromium and captures each screen, encoded as WebP by Chromium's
 *    own canvas (no image tool needed), into ui/public/site/img/, plus og.jpg (1200×630 JPEG).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import nodemailer from 'nodemailer';
import { chromium, type Page } from 'playwright-core';
import type { Knex } from 'knex';
import { loadConfig } from '../api/config';
import { bindModels, createKnex } from '../api/db/knex';
import { createLogger } from '../api/logger';
import type { AppDeps } from '../api/deps';
import '../api/channels';
import { ingestInbound } from '../api/inbound/receiveInbound';
import { sendMessage } from '../api/inbox/sendMessage';
import { MessageStatus, MessageType } from '../api/models/Message';
import { Channel, PLATFORM_IDS } from '../api/models/Channel';
import { loadViewer } from '../api/policy/conversations';
import type { AccessLevelValue } from '../api/policy/levels';
import { lockConversation } from '../api/conversations/queries';
import { applyAssignment } from '../api/assignment/assignNewCall';
import { setConversationTags } from '../api/inbox/setConversationTags';
import { createWhatsappChannel } from '../api/channels/whatsapp/createWhatsappChannel';
import { createEmailChannel } from '../api/channels/email/createEmailChannel';
import { sealSecret } from '../api/channels/secretBox';
import { sealSmtpUrl } from '../api/channels/email/companySmtp';
import { facebookIdentifier, instagramIdentifier } from '../api/channels/meta/pageLine';
import { insertStoredFiles } from '../api/assets/queries';
import { createStorage } from '../api/storage/storage';
import { newStorageKey } from '../api/storage/keys';
import { DEMO_LOGIN } from './lib/seed/team';
import { demoFile } from './lib/seed/files';
import { instanceDatabaseUrl, quietPublisher } from './lib/instance';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT_DIR = path.join(root, 'ui/public/site/img');
const BASE_URL = (process.env.BALCAO_URL ?? 'http://localhost:3000').replace(/\/$/, '');
/**
 * Screens are captured this much larger and drawn down to the image's size: at 1280 px the app's header has
 * room for every menu entry (1200 px is the site's image width).
 */
const CAPTURE_SCALE = 1280 / 1200;
/** Largest WebP we aim for; quality goes down in steps until the image fits (or reaches the floor). */
const TARGET_BYTES = 60_000;

const SHOWCASE_WHATSAPP = 'WhatsApp da Padaria';

type Step = { customer: string; minutesAgo: number } | { agent: 'sergio' | 'alice'; text: string; minutesAgo: number; file?: boolean };

interface ShowcaseIds {
  whatsapp: number;
  telegram: number;
  facebook: number;
  instagram: number;
  email: number;
  emailChannel: number;
  instagramChannel: number;
}

/** The demo workspace, its owner and the ids the shots need. */
async function demoWorkspace(knex: Knex) {
  const owner = await knex('operators').whereRaw('lower(email) = ?', [DEMO_LOGIN.email]).first('id');
  if (!owner) throw new Error(`no demo owner (${DEMO_LOGIN.email}): is this the database of an npm start instance?`);
  const member = await knex('workspace_members').where({ operatorId: owner.id }).orderBy('workspace_id').first('workspace_id', 'access_level');
  const workspaceId = member.workspaceId as number;
  const operator = async (email: string) => (await knex('operators').where({ email }).first('id')).id as number;
  return {
    workspaceId,
    ownerId: owner.id as number,
    ownerLevel: member.accessLevel as AccessLevelValue,
    sergio: await operator('supervisor@balcao.dev'),
    alice: await operator('agente@balcao.dev'),
    vendas: (await knex('groups').where({ workspaceId, name: 'Vendas' }).first('id')).id as number,
    atendimento: (await knex('groups').where({ workspaceId, name: 'Atendimento' }).first('id')).id as number,
    orcamento: (await knex('labels').where({ workspaceId, name: 'Orçamento' }).first('id'))?.id as number | undefined,
  };
}

type Demo = Awaited<ReturnType<typeof demoWorkspace>>;

/** Plays one conversation: customer messages through the inbound pipeline, replies through sendMessage. */
async function play(
  deps: AppDeps,
  demo: Demo,
  channelId: number,
  identity: { externalId: string; name: string; phone?: string; email?: string },
  steps: Step[],
  extra: (i: number) => Record<string, unknown> | undefined = () => undefined,
): Promise<number> {
  let conversationId: number | undefined;
  const now = Date.now();
  for (const [i, step] of steps.entries()) {
    const at = new Date(now - step.minutesAgo * 60_000);
    if ('customer' in step) {
      const { result } = await ingestInbound(deps, {
        workspaceId: demo.workspaceId,
        channelId,
        externalId: `showcase-${randomBytes(8).toString('hex')}`,
        identity: { externalId: identity.externalId, name: identity.name, phone: identity.phone ?? null, email: identity.email ?? null },
        content: [{ insert: `${step.customer}\n` }],
        type: 0,
        extraData: extra(i),
        sentAt: at,
      });
      conversationId = result.conversationId;
      continue;
    }
    if (conversationId === undefined) throw new Error('a showcase conversation starts with the customer');
    const operatorId = step.agent === 'alice' ? demo.alice : demo.sergio;
    const viewer = await loadViewer(deps.knex, { workspaceId: demo.workspaceId, operatorId, accessLevel: step.agent === 'alice' ? 3 : 6 });
    const sent = await sendMessage(deps, viewer, { id: conversationId, type: MessageType.COMMON, content: [{ insert: `${step.text}\n` }] }, at);
    await markDelivered(deps.knex, sent.id);
    if (step.file) await sendFile(deps, demo, viewer, conversationId, operatorId, new Date(at.getTime() + 20_000));
  }
  await writeBackMoments(deps.knex, conversationId!);
  return conversationId!;
}

/**
 * The commands stamp the present on the conversation, its call and contact; like the demo seed, the moments
 * of the messages are written back, so the list shows when the last message really was.
 */
async function writeBackMoments(knex: Knex, conversationId: number): Promise<void> {
  const first = await knex('messages').where({ customerPlatformId: conversationId }).orderBy('created_at').first('created_at');
  const last = await knex('messages').where({ customerPlatformId: conversationId }).orderBy('created_at', 'desc').first('created_at');
  const cp = await knex('customer_platforms').where({ id: conversationId }).first('customer_id', 'last_message', 'current_call_id');
  const preview = typeof cp.lastMessage === 'string' ? JSON.parse(cp.lastMessage) : cp.lastMessage;
  await knex('customer_platforms')
    .where({ id: conversationId })
    .update({ createdAt: first.createdAt, lastMessageAt: last.createdAt, lastMessage: JSON.stringify({ ...preview, createdAt: last.createdAt.toISOString() }) });
  await knex('customers').where({ id: cp.customerId }).update({ createdAt: first.createdAt });
  if (cp.currentCallId) await knex('calls').where({ id: cp.currentCallId }).update({ createdAt: first.createdAt });
}

/** There is no provider behind the showcase channels: a reply is marked as the provider's receipts would. */
async function markDelivered(knex: Knex, messageId: number): Promise<void> {
  await knex('messages')
    .where({ id: messageId })
    .update({ deliveryState: 'sent', status: MessageStatus.READ, externalId: `showcase-out-${messageId}`, deliveryStartedAt: knex.fn.now() });
}

async function sendFile(deps: AppDeps, demo: Demo, viewer: Awaited<ReturnType<typeof loadViewer>>, id: number, operatorId: number, at: Date): Promise<void> {
  const file = demoFile('cardapio');
  const key = newStorageKey();
  await createStorage({ dataDir: deps.config.dataDir }).put(key, Readable.from(file.bytes));
  await insertStoredFiles(deps.knex, [
    { workspaceId: demo.workspaceId, operatorId, key, fileName: file.fileName, mime: file.mime, size: file.bytes.length, sha256: createHash('sha256').update(file.bytes).digest('hex') },
  ]);
  const sent = await sendMessage(deps, viewer, { id, type: MessageType.COMMON, content: [{ file: { key } }] }, at);
  await markDelivered(deps.knex, sent.id);
}

/** A conversation: customer lines ('c') and the agents' replies, each with how many minutes ago it happened. */
function script(lines: [who: 'c' | 'sergio' | 'alice', text: string, minutesAgo: number, file?: boolean][]): Step[] {
  return lines.map(([who, text, minutesAgo, file]) => (who === 'c' ? { customer: text, minutesAgo } : { agent: who, text, minutesAgo, file }));
}

async function assign(deps: AppDeps, demo: Demo, id: number, operatorId: number, groupId: number): Promise<void> {
  await deps.knex.transaction(async (trx) => {
    await lockConversation(trx, demo.workspaceId, id);
    await applyAssignment(trx, id, { operatorId, groupId });
  });
}

async function prepareShowcase(deps: AppDeps, demo: Demo, smtpPort: number): Promise<ShowcaseIds> {
  const { knex } = deps;
  const existing = await knex('channels').where({ workspaceId: demo.workspaceId, name: SHOWCASE_WHATSAPP }).first('id');
  if (existing) {
    console.log('• Vitrine já criada: usando as conversas existentes');
    return findShowcase(knex, demo);
  }
  const actor = { workspaceId: demo.workspaceId, operatorId: demo.ownerId, accessLevel: demo.ownerLevel, kind: 'operator' as const };
  const seal = (s: string) => sealSecret(deps.config, s);

  const whatsapp = await createWhatsappChannel(deps, actor, {
    name: SHOWCASE_WHATSAPP,
    phone: '5511940028922',
    allowGroups: false,
    provider: 'cloud',
    phoneNumberId: '104857600000001',
    businessAccountId: '209715200000002',
    accessToken: `vitrine-${randomBytes(16).toString('hex')}`,
    appSecret: randomBytes(16).toString('hex'),
  });
  const telegram = await Channel.query(knex).insertAndFetch({
    workspaceId: demo.workspaceId,
    platformId: PLATFORM_IDS.telegram,
    type: 'telegram',
    name: '@PaoQuenteBot',
    description: 'Bot da Padaria no Telegram',
    status: 'connected',
    identifier: randomBytes(16).toString('hex'),
    config: { botId: 7000000001, botUsername: 'PaoQuenteBot', tokenSealed: seal('7000000001:vitrine-sem-token-real'), secretTokenSealed: seal(randomBytes(32).toString('base64url')) },
  });
  const pageId = '310000000000001';
  const pageConfig = { pageId, pageName: 'Padaria Pão Quente', pageTokenSealed: seal('vitrine-sem-token-real') };
  const facebook = await Channel.query(knex).insertAndFetch({
    workspaceId: demo.workspaceId,
    platformId: PLATFORM_IDS.facebook,
    type: 'facebook',
    identifier: facebookIdentifier(pageId),
    name: 'Padaria Pão Quente',
    description: 'Padaria Pão Quente',
    status: 'connected',
    config: pageConfig,
  });
  const igAccount = '178400000000001';
  const instagram = await Channel.query(knex).insertAndFetch({
    workspaceId: demo.workspaceId,
    platformId: PLATFORM_IDS.instagram,
    type: 'instagram',
    identifier: instagramIdentifier(igAccount),
    name: '@padariapaoquente',
    description: '@padariapaoquente',
    status: 'connected',
    config: { ...pageConfig, instagramAccountId: igAccount, username: 'padariapaoquente' },
  });
  const email = await createEmailChannel(deps, actor, { description: 'Contato da Padaria' });
  // Replies through the bakery's own SMTP server, as the channel's screen offers (nothing is sent: see markDelivered).
  await knex('channels')
    .where({ id: email.id })
    .update({ config: { fromName: 'Padaria Pão Quente', fromAddress: 'contato@paoquente.com.br', smtpUrlSealed: sealSmtpUrl(deps.config, 'smtp://contato%40paoquente.com.br:vitrine@smtp.paoquente.com.br:587') } });

  // WhatsApp: an order with the menu sent as a file.
  const wa = await play(
    deps,
    demo,
    whatsapp.id,
    { externalId: '5511987654321', name: 'Renata Oliveira', phone: '+5511987654321' },
    script([
      ['c', 'Oi! Vocês fazem bolo de aniversário para 30 pessoas?', 42],
      ['sergio', 'Olá, Renata! Fazemos sim Para 30 pessoas indicamos o bolo de 3 kg. Qual sabor você prefere?', 39],
      ['c', 'Chocolate com morango! Dá para retirar no sábado às 10h?', 35],
      ['sergio', 'Dá sim! Vou te mandar o cardápio de encomendas com os valores.', 33, true],
      ['c', 'Perfeito, pode reservar. Pago no Pix?', 30],
      ['sergio', 'Pode sim! Reservado para sábado às 10h, no nome de Renata. Qualquer coisa é só chamar por aqui.', 28],
    ]),
  );
  // Telegram
  const tg = await play(
    deps,
    demo,
    telegram.id,
    { externalId: '520000101', name: 'Lucas Ferreira' },
    script([
      ['c', 'Boa tarde! O pão de fermentação natural sai que horas?', 26],
      ['alice', 'Boa tarde, Lucas! Ele sai do forno às 7h e às 16h, todos os dias.', 24],
      ['c', 'Ótimo, passo às 16h então. Dá para separar dois?', 22],
      ['alice', 'Separados! Ficam no balcão no seu nome até as 18h', 21],
    ]),
  );
  // Facebook Messenger
  const fb = await play(
    deps,
    demo,
    facebook.id,
    { externalId: '6100000000000101', name: 'Paulo Henrique' },
    script([
      ['c', 'Olá! Vocês abrem no feriado de sexta?', 19],
      ['alice', 'Olá, Paulo! Abrimos sim, das 7h às 13h.', 17],
      ['c', 'E fazem entrega no Jardim Europa?', 16],
      ['alice', 'Fazemos! Pedidos acima de R$ 50 têm entrega grátis no bairro.', 15],
    ]),
  );
  // Instagram Direct: a story reply.
  const ig = await play(
    deps,
    demo,
    instagram.id,
    { externalId: '1780000000000101', name: 'Júlia Santos' },
    script([
      ['c', 'Resposta ao seu story: https://www.instagram.com/stories/padariapaoquente/\nQue lindo esse bolo de morango! Ainda tem hoje?', 12],
      ['sergio', 'Oi, Júlia! Temos sim, inteiro ou em fatias. Quer que a gente separe um?', 10],
      ['c', 'Quero um inteiro! Passo aí às 17h', 9],
      ['sergio', 'Combinado, separado no seu nome!', 8],
    ]),
    (i) => (i === 0 ? { storyReply: { id: '18000000000000001', url: 'https://www.instagram.com/stories/padariapaoquente/' } } : undefined),
  );
  // E-mail: a real mail to the instance's SMTP server (the channel's forwarding address).
  const mailAt = new Date(Date.now() - 7 * 60_000);
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: smtpPort, secure: false, ignoreTLS: true });
  await transport.sendMail({
    from: '"Cláudia Mendes" <claudia.mendes@exemplo.com.br>',
    to: email.identifier,
    subject: 'Orçamento de coffee break para 40 pessoas',
    date: mailAt,
    text: 'Bom dia!\n\nGostaria de um orçamento de coffee break para 40 pessoas na próxima quinta-feira, às 9h, no nosso escritório na Av. Paulista.\n\nPrecisamos de opções sem glúten para 5 pessoas.\n\nObrigada,\nCláudia Mendes\nEscritório Mendes & Associados',
    html: '<p>Bom dia!</p><p>Gostaria de um orçamento de <strong>coffee break para 40 pessoas</strong> na próxima quinta-feira, às 9h, no nosso escritório na Av. Paulista.</p><p>Precisamos de opções <em>sem glúten</em> para 5 pessoas.</p><p>Obrigada,<br>Cláudia Mendes<br><span style="color:#667085">Escritório Mendes &amp; Associados</span></p>',
  });
  transport.close();
  let mailConversation: number | undefined;
  for (let i = 0; i < 50 && !mailConversation; i++) {
    const row = await knex('customer_platforms').where({ channelId: email.id }).first('id');
    mailConversation = row?.id;
    if (!mailConversation) await new Promise((r) => setTimeout(r, 200));
  }
  if (!mailConversation) throw new Error(`the mail did not arrive: is SMTP_PORT ${smtpPort} the instance's inbound SMTP port?`);
  const sergioViewer = await loadViewer(knex, { workspaceId: demo.workspaceId, operatorId: demo.sergio, accessLevel: 6 });
  const reply = await sendMessage(
    deps,
    sergioViewer,
    {
      id: mailConversation,
      type: MessageType.COMMON,
      content: [{ insert: 'Bom dia, Cláudia!\n\nPara 40 pessoas sugerimos o coffee break completo: salgados, mini sanduíches, bolo, frutas, café e sucos, por R$ 38,00 por pessoa. As opções sem glúten estão incluídas.\n\nPodemos confirmar para quinta às 9h?\n\nAbraços,\nSérgio — Padaria Pão Quente\n' }],
    },
    new Date(mailAt.getTime() + 4 * 60_000),
  );
  await markDelivered(knex, reply.id);
  await writeBackMoments(knex, mailConversation);

  await assign(deps, demo, wa, demo.sergio, demo.vendas);
  await assign(deps, demo, tg, demo.alice, demo.atendimento);
  await assign(deps, demo, fb, demo.alice, demo.atendimento);
  await assign(deps, demo, ig, demo.sergio, demo.vendas);
  await assign(deps, demo, mailConversation, demo.sergio, demo.vendas);
  if (demo.orcamento) {
    const owner = await loadViewer(knex, { workspaceId: demo.workspaceId, operatorId: demo.ownerId, accessLevel: demo.ownerLevel });
    await setConversationTags(deps, owner, { id: wa, tags: [demo.orcamento] });
    await setConversationTags(deps, owner, { id: mailConversation, tags: [demo.orcamento] });
  }
  console.log('• Vitrine criada: WhatsApp, Telegram, Messenger, Instagram e e-mail');
  return { whatsapp: wa, telegram: tg, facebook: fb, instagram: ig, email: mailConversation, emailChannel: email.id, instagramChannel: instagram.id };
}

async function findShowcase(knex: Knex, demo: Demo): Promise<ShowcaseIds> {
  const channel = async (type: string) => (await knex('channels').where({ workspaceId: demo.workspaceId, type }).orderBy('id', 'desc').first('id')).id as number;
  const conversation = async (channelId: number) => (await knex('customer_platforms').where({ channelId }).orderBy('id').first('id')).id as number;
  const ids = { whatsapp: await channel('whatsapp'), telegram: await channel('telegram'), facebook: await channel('facebook'), instagram: await channel('instagram'), email: await channel('email') };
  return {
    whatsapp: await conversation(ids.whatsapp),
    telegram: await conversation(ids.telegram),
    facebook: await conversation(ids.facebook),
    instagram: await conversation(ids.instagram),
    email: await conversation(ids.email),
    emailChannel: ids.email,
    instagramChannel: ids.instagram,
  };
}

// ---------------------------------------------------------------------------------------------------------
// Shots

interface Shot {
  name: string;
  /** Path in the app, or a function that opens the screen itself. */
  open: string | ((page: Page) => Promise<void>);
  /** What must be on screen before the capture. */
  ready: (page: Page) => Promise<unknown>;
  size: { width: number; height: number };
  /** Also write a JPEG (the site's og:image). */
  jpeg?: string;
  /** Inbox screens: show or hide the contact panel (a remembered preference, so set on every inbox shot). */
  panel?: boolean;
}

/** Shows or hides the conversation's contact panel through its header button. */
async function contactPanel(page: Page, show: boolean): Promise<void> {
  await page.getByRole('button', { name: /painel do contato/ }).first().waitFor();
  const button = page.getByRole('button', { name: show ? 'Mostrar painel do contato' : 'Ocultar painel do contato' });
  if (await button.count()) await button.first().click();
}

/** Encodes a PNG as WebP (and optionally JPEG) with Chromium's canvas, lowering the quality until it fits. */
async function encode(page: Page, png: Buffer, size: { width: number; height: number }, type: 'image/webp' | 'image/jpeg', maxBytes: number): Promise<Buffer> {
  const dataUrl = `data:image/png;base64,${png.toString('base64')}`;
  for (const quality of [0.82, 0.75, 0.68, 0.6, 0.52, 0.45]) {
    // A string, since the scripts' tsconfig has no DOM types: the code runs in the page.
    const out: string = await page.evaluate(`(async () => {
      const img = new Image();
      img.src = ${JSON.stringify(dataUrl)};
      await img.decode();
      const canvas = document.createElement('canvas');
      canvas.width = ${size.width};
      canvas.height = ${size.height};
      const ctx = canvas.getContext('2d');
      ctx.imageSmoothingQuality = 'high';
      ctx.drawImage(img, 0, 0, ${size.width}, ${size.height});
      return canvas.toDataURL(${JSON.stringify(type)}, ${quality});
    })()`);
    if (!out.startsWith(`data:${type};`)) throw new Error(`this Chromium cannot encode ${type}`);
    const bytes = Buffer.from(out.slice(out.indexOf(',') + 1), 'base64');
    if (bytes.length <= maxBytes || quality === 0.45) return bytes;
  }
  throw new Error('unreachable');
}

async function login(page: Page): Promise<void> {
  await page.goto('/user/login');
  await page.getByLabel('E-mail').fill(DEMO_LOGIN.email);
  await page.getByLabel('Senha').fill(DEMO_LOGIN.password);
  await page.getByRole('button', { name: /Entrar/ }).click();
  await page.waitForURL(/\/inbox/);
}

async function main(): Promise<void> {
  const dataDir = process.env.DATA_DIR;
  if (!dataDir) throw new Error('DATA_DIR must name the data directory of the running instance (its database password and channel key are there)');
  const smtpPort = Number(process.env.SMTP_PORT ?? 2525);
  const config = loadConfig({ ...process.env, DATA_DIR: dataDir, PUBLIC_URL: BASE_URL });
  const databaseUrl = instanceDatabaseUrl(dataDir);
  if (!databaseUrl) throw new Error(`no ${path.join(dataDir, 'pg.password')}: DATA_DIR must be the running instance's (or set DATABASE_URL)`);
  const knex = createKnex(databaseUrl, { pool: { max: 2 } });
  bindModels(knex);
  const deps = { knex, logger: createLogger('silent'), publisher: quietPublisher, config } as unknown as AppDeps;
  let ids: ShowcaseIds;
  let demo: Demo;
  let widget: { id: number; identifier: string };
  let botId: number;
  try {
    demo = await demoWorkspace(knex);
    ids = await prepareShowcase(deps, demo, smtpPort);
    widget = await knex('channels').where({ workspaceId: demo.workspaceId, type: 'widget' }).orderBy('id').first('id', 'identifier');
    botId = (await knex('bots').where({ workspaceId: demo.workspaceId }).orderBy('id').first('id')).id;
  } finally {
    await knex.destroy();
  }
  const botConversation = async (page: Page) => {
    // Beatriz Nunes went through the bot ('Fazer uma encomenda') and was handed to Vendas (docs/demo.md).
    await page.goto('/inbox/all');
    await page.getByText('Beatriz Nunes').first().click();
    await page.waitForURL(/\/inbox\/all\/\d+/);
  };
  const inboxReady = (text: string) => (page: Page) => page.getByText(text).last().waitFor();
  const BANNER = { width: 1200, height: 630 };
  const SCREEN = { width: 1200, height: 750 };
  const shots: Shot[] = [
    { name: 'whatsapp-banner', open: `/inbox/all/${ids.whatsapp}`, ready: inboxReady('Reservado para sábado'), size: BANNER, panel: false, jpeg: 'og.jpg' },
    {
      name: 'whatsapp-settings',
      open: '/settings/channels/add/whatsapp',
      ready: async (p) => {
        await p.getByText('QR Code (WhatsApp Web)').first().waitFor();
        // Filled in, not saved.
        await p.getByLabel(/^Nome/).fill('Vendas');
        await p.getByLabel(/^Número/).pressSequentially('5511940028922');
      },
      size: SCREEN,
    },
    { name: 'telegram-banner', open: `/inbox/all/${ids.telegram}`, ready: inboxReady('Separados!'), size: BANNER, panel: false },
    { name: 'telegram-settings', open: '/settings/channels/add/telegram', ready: (p) => p.getByLabel(/Token do bot/).first().waitFor(), size: SCREEN },
    { name: 'facebook-banner', open: `/inbox/all/${ids.facebook}`, ready: inboxReady('entrega grátis'), size: BANNER, panel: false },
    { name: 'facebook-settings', open: '/settings/channels', ready: (p) => p.getByText('Contato da Padaria').first().waitFor(), size: SCREEN },
    { name: 'instagram-banner', open: `/inbox/all/${ids.instagram}`, ready: inboxReady('Combinado, separado'), size: BANNER, panel: false },
    { name: 'instagram-contacts', open: '/contacts', ready: (p) => p.getByText('Júlia Santos').first().waitFor(), size: SCREEN },
    { name: 'email-banner', open: `/inbox/all/${ids.email}`, ready: inboxReady('Podemos confirmar para quinta'), size: BANNER, panel: false },
    { name: 'email-settings', open: `/settings/channels/email/${ids.emailChannel}`, ready: (p) => p.getByText(/encaminhamento/i).first().waitFor(), size: SCREEN },
    {
      name: 'features-banner',
      open: async (page) => {
        await page.goto(`/widget?workspacePlatformIdentifier=${widget.identifier}`);
        const box = page.locator('[data-identifier]').first();
        await box.waitFor({ state: 'attached' });
      },
      ready: async (page) => {
        // The widget lives in a shadow root; Playwright's locators pierce it.
        const input = page.locator('textarea').first();
        await input.waitFor();
        await input.fill('Oi! Vocês fazem encomendas para festas?');
        await input.press('Enter');
        await page.getByText(/Fazer uma encomenda/).first().waitFor({ timeout: 30_000 });
        await page.waitForTimeout(800);
      },
      size: BANNER,
    },
    { name: 'features-settings', open: `/settings/channels/chat-widget/${widget.id}`, ready: (p) => p.getByText(/Sites permitidos/).first().waitFor(), size: SCREEN },
    { name: 'bot-banner', open: `/settings/bot/${botId}`, ready: (p) => p.locator('.react-flow__node').first().waitFor(), size: BANNER },
    { name: 'bot-inbox', open: botConversation, ready: inboxReady('Fazer uma encomenda'), size: SCREEN, panel: false },
    { name: 'inbox', open: `/inbox/all/${ids.whatsapp}`, ready: inboxReady('Reservado para sábado'), size: SCREEN, panel: true },
  ];
  const only = process.env.SHOTS_ONLY?.split(',');

  mkdirSync(OUT_DIR, { recursive: true });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu', '--lang=pt-BR'],
    // Date fields follow the process's language, not the page's locale.
    env: { ...process.env, LANG: 'pt_BR.UTF-8', LANGUAGE: 'pt_BR:pt' },
  });
  try {
    const context = await browser.newContext({ baseURL: BASE_URL, locale: 'pt-BR', timezoneId: 'America/Sao_Paulo', viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
    context.setDefaultTimeout(20_000);
    const page = await context.newPage();
    await login(page);
    const encoder = await context.newPage();
    await encoder.goto('about:blank');
    for (const shot of shots) {
      if (only && !only.includes(shot.name)) continue;
      await page.setViewportSize({ width: Math.round(shot.size.width * CAPTURE_SCALE), height: Math.round(shot.size.height * CAPTURE_SCALE) });
      if (typeof shot.open === 'string') await page.goto(shot.open);
      else await shot.open(page);
      try {
        if (shot.panel !== undefined) await contactPanel(page, shot.panel);
        await shot.ready(page);
      } catch (err) {
        const file = path.join(tmpdir(), `siteScreenshots-${shot.name}.png`);
        await page.screenshot({ path: file }).catch(() => undefined);
        throw new Error(`${shot.name}: the screen was not ready (what it showed: ${file})`, { cause: err });
      }
      // Fonts, avatars and the last layout pass.
      await page.evaluate('document.fonts.ready.then(() => true)');
      await page.waitForTimeout(600);
      const png = await page.screenshot({ type: 'png' });
      const webp = await encode(encoder, png, shot.size, 'image/webp', TARGET_BYTES);
      writeFileSync(path.join(OUT_DIR, `${shot.name}.webp`), webp);
      console.log(`  ${shot.name}.webp  ${shot.size.width}×${shot.size.height}  ${(webp.length / 1024).toFixed(1)} kB`);
      if (shot.jpeg) {
        const jpeg = await encode(encoder, png, shot.size, 'image/jpeg', 120_000);
        writeFileSync(path.join(OUT_DIR, shot.jpeg), jpeg);
        console.log(`  ${shot.jpeg}  ${shot.size.width}×${shot.size.height}  ${(jpeg.length / 1024).toFixed(1)} kB`);
      }
    }
  } finally {
    await browser.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
