import type { AppDeps } from '../deps';
import type { Actor } from '../policy/policy';
import { errors, type FieldError } from '../http/errors';
import { Campaign } from '../models/Campaign';
import { isCloudConfig } from '../channels/whatsapp/schema';
import { numbersFileKind, refusals } from '../../activities/campaigns/numbersFile';
import { assertCampaignSlot } from './planLimit';
import { startCampaignWorkflow } from './runGateway';
import type { CampaignCreateReq } from './schema';

/** The calendar day of `at` in a time zone, as YYYY-MM-DD (comparable as text). */
export function dayIn(timeZone: string, at: Date): string {
  try {
    return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
  } catch {
    return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
  }
}

/**
 * POST /api/campaign: checks what lives in the workspace (the line, the uploaded file, the start day in the
 * workspace's time zone, the plan's parallel campaigns), stores the campaign `waiting_file_processing` and,
 * after commit, starts `campaign:{id}`, which processes the file.
 */
export async function createCampaign(deps: AppDeps, actor: Actor, input: CampaignCreateReq): Promise<Campaign> {
  const campaign = await Campaign.transaction(deps.knex, async (trx) => {
    const fields: FieldError[] = [];
    const ws = await trx('workspaces').where({ id: actor.workspaceId }).first('time_zone');
    const channel = await trx('channels').where({ workspaceId: actor.workspaceId, id: input.workspacePlatformId }).first('id', 'type', 'config');
    if (!channel || channel.type !== 'whatsapp') fields.push({ key: 'workspacePlatformId', descriptions: ['Escolha uma linha de WhatsApp deste workspace.'] });
    else if (isCloudConfig(channel.config ?? {}) && !input.template) {
      fields.push({ key: 'template', descriptions: ['Linhas da API oficial só enviam campanhas com um modelo aprovado: escolha o modelo.'] });
    }
    const file = await trx('stored_files')
      .where({ workspaceId: actor.workspaceId })
      .where((w) => {
        void w.where({ key: input.file }).orWhere({ fileName: input.file });
      })
      .orderByRaw('(key = ?) desc', [input.file])
      .orderBy('created_at', 'desc')
      .first('key', 'file_name');
    const kind = file ? numbersFileKind(file.fileName) : null;
    if (!file) fields.push({ key: 'file', descriptions: ['Arquivo não encontrado: envie o arquivo de novo.'] });
    else if (!kind) fields.push({ key: 'file', descriptions: ['Formato de arquivo não suportado: use .csv, .xls, .xlsx, .txt ou .xml.'] });
    else if (kind === 'xls') fields.push({ key: 'file', descriptions: [refusals.xls().message] });
    const executionDate = input.executionDate ? new Date(input.executionDate) : null;
    if (executionDate) {
      const tz = ws?.timeZone ?? 'America/Sao_Paulo';
      if (dayIn(tz, executionDate) < dayIn(tz, new Date())) fields.push({ key: 'executionDate', descriptions: ['A data de início não pode ser anterior a hoje.'] });
    }
    if (fields.length) throw errors.validation(fields);
    await assertCampaignSlot(trx, actor.workspaceId);
    return Campaign.query(trx).insertAndFetch({
      workspaceId: actor.workspaceId,
      channelId: input.workspacePlatformId,
      name: input.name,
      message: input.message as never,
      template: input.template ?? null,
      file: file!.key,
      executionDate,
      chunks: input.chunks,
      timeBetweenChunks: input.timeBetweenChunks,
      initialTimeBetweenMessages: input.initialTimeBetweenMessages,
      finalTimeBetweenMessages: input.finalTimeBetweenMessages,
      status: 'waiting_file_processing',
      operatorId: actor.kind === 'operator' ? actor.operatorId : null,
    });
  });
  await startCampaignWorkflow(deps, campaign.id);
  return campaign;
}
