import { Readable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { Config } from '../../api/config';
import { sealSecret } from '../../api/channels/secretBox';
import { createStorage } from '../../api/storage/storage';
import { newStorageKey } from '../../api/storage/keys';
import { makeWorkspace, unique } from '../helpers/factories';

/** A workspace with a subscription allowing `campaignUnits` parallel campaigns. */
export async function makeCampaignWorkspace(knex: Knex, campaignUnits = 1, license = 'enterprise'): Promise<{ id: number; name: string }> {
  const ws = await makeWorkspace(knex);
  await knex('subscriptions').insert({ workspaceId: ws.id, license, status: 'active', campaignUnits, agents: 10, numbers: 1, expiresAt: new Date(Date.now() + 30 * 86_400_000) });
  return ws;
}

export interface CloudLineRow {
  id: number;
  phoneNumberId: string;
  token: string;
}

/** A WhatsApp Cloud API line whose token the fake accepts. */
export async function makeCloudLine(knex: Knex, config: Config, workspaceId: number, status = 'connected'): Promise<CloudLineRow> {
  const phoneNumberId = String(10 ** 14 + Math.floor(Math.random() * 10 ** 13));
  const token = `EAAG${randomBytes(12).toString('hex')}`;
  const [row] = await knex('channels')
    .insert({
      workspaceId,
      type: 'whatsapp',
      platformId: 1,
      identifier: unique('wa'),
      name: 'Campanhas',
      phone: '5511912345678',
      status,
      config: JSON.stringify({ provider: 'cloud', phoneNumberId, businessAccountId: '102290129340398', accessTokenSealed: sealSecret(config, token), appSecretSealed: sealSecret(config, 'app-secret'), verifyToken: 'v' }),
    })
    .returning('id');
  return { id: row.id, phoneNumberId, token };
}

/** A QR (WhatsApp Web) line. */
export async function makeQrLineRow(knex: Knex, workspaceId: number, status = 'connected'): Promise<number> {
  const [row] = await knex('channels')
    .insert({ workspaceId, type: 'whatsapp', platformId: 1, identifier: unique('qr'), name: 'QR', phone: '5511912345678', status, config: JSON.stringify({ provider: 'qr' }) })
    .returning('id');
  return row.id;
}

/** Stores bytes as an upload of the workspace (what POST /api/assets/upload leaves behind); answers the key. */
export async function storeUpload(knex: Knex, config: Config, workspaceId: number, fileName: string, bytes: Buffer | (() => AsyncIterable<Buffer>), mime = 'text/csv'): Promise<string> {
  const key = newStorageKey();
  const stream = Buffer.isBuffer(bytes) ? Readable.from([bytes]) : Readable.from(bytes());
  const { size } = await createStorage(config).put(key, stream);
  await knex('stored_files').insert({ workspaceId, key, fileName, mime, size });
  return key;
}

export interface CampaignRowInput {
  workspaceId: number;
  channelId: number;
  file?: string | null;
  status?: string;
  message?: string;
  template?: { name: string; language: string } | null;
  chunks?: number;
  timeBetweenChunks?: number;
  initialTimeBetweenMessages?: number;
  finalTimeBetweenMessages?: number;
  executionDate?: Date | null;
}

export async function insertCampaign(knex: Knex, c: CampaignRowInput): Promise<number> {
  const [row] = await knex('campaigns')
    .insert({
      workspaceId: c.workspaceId,
      channelId: c.channelId,
      name: unique('Campanha'),
      message: JSON.stringify([{ insert: `${c.message ?? 'Olá {{1}}, temos ofertas!'}\n` }]),
      template: c.template === undefined ? JSON.stringify({ name: 'oferta', language: 'pt_BR' }) : c.template ? JSON.stringify(c.template) : null,
      file: c.file ?? null,
      status: c.status ?? 'waiting_file_processing',
      chunks: c.chunks ?? 100,
      timeBetweenChunks: c.timeBetweenChunks ?? 0,
      initialTimeBetweenMessages: c.initialTimeBetweenMessages ?? 0,
      finalTimeBetweenMessages: c.finalTimeBetweenMessages ?? 0,
      executionDate: c.executionDate ?? null,
    })
    .returning('id');
  return row.id;
}

/** `n` distinct valid Brazilian mobiles (5511 9xxxx-xxxx) from `start`. */
export function phones(n: number, start = 0): string[] {
  return Array.from({ length: n }, (_, i) => `55119${String(80_000_000 + start + i).padStart(8, '0')}`);
}

/** Campaign numbers straight into the table, `pending`, for a campaign already past file processing. */
export async function insertPendingNumbers(knex: Knex, workspaceId: number, campaignId: number, list: string[]): Promise<void> {
  for (let i = 0; i < list.length; i += 5000) {
    await knex('campaign_numbers').insert(
      list.slice(i, i + 5000).map((p, j) => ({ workspaceId, campaignId, phone: p, raw: p, normalized: p, variables: JSON.stringify({ '1': `Cliente ${i + j}` }), status: 'pending' })),
    );
  }
  await knex('campaigns').where({ id: campaignId }).update({ totalNumbers: list.length });
}

export async function until(check: () => boolean | Promise<boolean>, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
