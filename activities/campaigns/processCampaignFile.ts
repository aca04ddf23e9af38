import type { Knex } from 'knex';
import { createStorage } from '../../api/storage/storage';
import { normalizeCampaignPhone } from '../../api/campaigns/phone';
import { isHeaderRow } from '../../api/campaigns/fileColumns';
import { publishCampaignProgress } from '../../api/campaigns/realtime';
import type { ActivityDeps } from '../deps';
import { DEFAULT_NUMBERS_FILE_LIMITS, MAX_CELL, NumbersFileRefused, numbersFileKind, readNumbersFile, refusals, type NumbersFileLimits } from './numbersFile';

export interface ProcessCampaignFileResult {
  status: string;
  totalNumbers: number;
}

/** Rows per INSERT: 1000 rows × 9 columns stays far below PostgreSQL's 65535 parameters. */
const INSERT_BATCH = 1000;

interface NumberRow {
  workspaceId: number;
  campaignId: number;
  phone: string;
  raw: string;
  normalized: string | null;
  variables: string;
  status: 'pending' | 'invalid' | 'duplicate' | 'opted_out';
  error: string | null;
}

/** Why an opted-out number is not sent (here, and by the send activity for an opt-out after the file was read). */
export const OPTED_OUT_REASON = 'O contato pediu para não receber campanhas (SAIR).';

const REASONS = {
  invalid: 'Número inválido: informe DDI, DDD e número.',
  duplicate: 'Número repetido no arquivo: enviado uma vez só.',
  optedOut: OPTED_OUT_REASON,
  empty: 'Nenhum número válido no arquivo.',
  missing: 'Arquivo da campanha não encontrado.',
};

/**
 * The workflow's first step (status waiting_file_processing, docs/campaigns.md): reads the uploaded file as
 * a stream, normalises each first-column number, and stores every row in campaign_numbers in batches —
 * valid ones `pending`, the rest `invalid`, `duplicate` or `opted_out` with their reason. One transaction:
 * a retry after a crash starts from a clean slate. A campaign past this status is answered as it is
 * (idempotent). Ends in waiting_processing, or finished_fail with the reason in `error`.
 */
export const processCampaignFile =
  (deps: ActivityDeps, limits: NumbersFileLimits = DEFAULT_NUMBERS_FILE_LIMITS) =>
  async ({ campaignId }: { campaignId: number }): Promise<ProcessCampaignFileResult> => {
    if (!deps.config) throw new Error('processCampaignFile needs the process config');
    const config = deps.config;
    const result = await deps.knex.transaction(async (trx) => {
      const campaign = await trx('campaigns').where({ id: campaignId }).forUpdate().first('id', 'workspace_id', 'status', 'file', 'total_numbers');
      if (!campaign) return { status: 'missing', totalNumbers: 0 };
      if (campaign.status !== 'waiting_file_processing') return { status: campaign.status as string, totalNumbers: campaign.totalNumbers as number };
      const fail = async (error: string) => {
        await trx('campaign_numbers').where({ campaignId }).delete();
        await trx('campaigns').where({ id: campaignId }).update({ status: 'finished_fail', error, totalNumbers: 0, totalNumbersInvalid: 0, finishedAt: trx.fn.now(), updatedAt: trx.fn.now() });
        return { status: 'finished_fail', totalNumbers: 0 };
      };
      const file = campaign.file ? await trx('stored_files').where({ workspaceId: campaign.workspaceId, key: campaign.file }).first('key', 'file_name', 'size') : undefined;
      const kind = file ? numbersFileKind(file.fileName) : null;
      if (!file) return fail(REASONS.missing);
      if (!kind) return fail(refusals.unknownKind().message);
      // Refused before a byte is read: the size is known from the upload.
      if (Number(file.size) > limits.maxBytes) return fail(refusals.tooLarge(limits.maxBytes).message);
      const stored = await createStorage(config).get(file.key);
      if (!stored) return fail(REASONS.missing);
      try {
        const counts = await storeRows(trx, campaign.workspaceId, campaignId, readNumbersFile(kind, stored.stream, limits));
        if (!counts.valid) return fail(REASONS.empty);
        await trx('campaigns')
          .where({ id: campaignId })
          .update({ status: 'waiting_processing', error: null, totalNumbers: counts.valid, totalNumbersInvalid: counts.rejected, updatedAt: trx.fn.now() });
        return { status: 'waiting_processing', totalNumbers: counts.valid };
      } catch (err) {
        stored.stream.destroy();
        if (err instanceof NumbersFileRefused) return fail(err.message);
        throw err;
      }
    });
    await publishCampaignProgress(deps, campaignId);
    return result;
  };

/** Stores the rows in batches; answers how many are sendable and how many were rejected. */
async function storeRows(trx: Knex.Transaction, workspaceId: number, campaignId: number, rows: AsyncGenerator<string[]>): Promise<{ valid: number; rejected: number }> {
  await trx('campaign_numbers').where({ campaignId }).delete();
  const seen = new Set<string>();
  let batch: NumberRow[] = [];
  let valid = 0;
  let rejected = 0;
  let first = true;
  const flush = async () => {
    if (!batch.length) return;
    // Opted-out numbers of the workspace, looked up per batch (the index is on (workspace_id, phone)).
    const candidates = batch.filter((r) => r.status === 'pending').map((r) => r.normalized!);
    if (candidates.length) {
      const out = new Set((await trx('campaign_opt_outs').where({ workspaceId }).whereIn('phone', candidates).pluck('phone')) as string[]);
      for (const r of batch) {
        if (r.status === 'pending' && out.has(r.normalized!)) {
          r.status = 'opted_out';
          r.error = REASONS.optedOut;
          valid--;
          rejected++;
        }
      }
    }
    await trx('campaign_numbers').insert(batch);
    batch = [];
  };
  for await (const cells of rows) {
    const raw = (cells[0] ?? '').slice(0, MAX_CELL);
    const isFirst = first;
    first = false;
    if (!raw && cells.every((c) => !c)) continue;
    const normalized = normalizeCampaignPhone(raw);
    // A first row with words in its first cell is a header ("telefone;nome"), not an invalid number.
    if (isFirst && isHeaderRow(cells)) continue;
    const variables = JSON.stringify(Object.fromEntries(cells.slice(1).map((v, i) => [String(i + 1), v])));
    let status: NumberRow['status'] = 'pending';
    let error: string | null = null;
    if (!normalized) {
      status = 'invalid';
      error = REASONS.invalid;
    } else if (seen.has(normalized)) {
      status = 'duplicate';
      error = REASONS.duplicate;
    } else {
      seen.add(normalized);
    }
    if (status === 'pending') valid++;
    else rejected++;
    batch.push({ workspaceId, campaignId, phone: normalized ?? raw.slice(0, 64), raw, normalized: status === 'invalid' ? null : normalized, variables, status, error });
    if (batch.length >= INSERT_BATCH) await flush();
  }
  await flush();
  return { valid, rejected };
}
