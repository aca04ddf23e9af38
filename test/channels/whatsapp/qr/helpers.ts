import type { Knex } from 'knex';
import { makeWorkspace, unique } from '../../../helpers/factories';

export interface TestQrLine {
  workspaceId: number;
  channelId: number;
}

/** A WhatsApp QR line (platform 1) in a workspace of its own. */
export async function makeQrLine(knex: Knex, over: { allowGroups?: boolean } = {}): Promise<TestQrLine> {
  const ws = await makeWorkspace(knex);
  const [row] = await knex('channels')
    .insert({ workspaceId: ws.id, platformId: 1, type: 'whatsapp', name: unique('Linha'), phone: '5511999990000', allowGroups: over.allowGroups ?? false, config: JSON.stringify({ provider: 'qr' }) })
    .returning('id');
  return { workspaceId: ws.id, channelId: row.id };
}
