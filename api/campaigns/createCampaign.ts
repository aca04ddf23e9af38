import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import type { Actor } from '../policy/policy';
import { errors, type FieldError } from '../http/errors';
import { Campaign } from '../models/Campaign';
import { isCloudConfig } from '../channels/whatsapp/schema';
import { listApprovedTemplates, type WhatsappTemplate } from '../channels/whatsapp/templates';
import { ChannelSendError } from '../channels/sendErrors';
import type { StoredFileRef } from '../conversations/content';
import { numbersFileKind } from './numbersFileKind';
import { assertWithinLimit } from '../billing/limits';
import { startCampaignWorkflow } from './runGateway';
import { campaignMediaProblem, campaignTemplateProblem, type CampaignCreateReq } from './schema';

/** The calendar day of `at` in a time zone, as YYYY-MM-DD (comparable as text). */
export function dayIn(timeZone: string, at: Date): string {
  try {
    return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
  } catch {
    return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
  }
}

/** The newest upload of the workspace named by its key or its fileName (what POST /api/assets/upload answered). */
async function uploadOf(trx: Knex, workspaceId: number, name: string): Promise<StoredFileRef | undefined> {
  const row: { key: string; fileName: string; mime: string; size: number | string } | undefined = await trx('stored_files')
    .where({ workspaceId })
    .where((w) => {
      void w.where({ key: name }).orWhere({ fileName: name });
    })
    .orderByRaw('(key = ?) desc', [name])
    .orderBy('created_at', 'desc')
    .first('key', 'file_name', 'mime', 'size');
  return row && { key: row.key, fileName: row.fileName, mime: row.mime, size: Number(row.size) };
}

/**
 * The approved template a Cloud campaign names, read from Meta: it must be there, campaigns must be able to
 * fill it, and its media header (if any) decides whether the campaign needs an attachment and of which
 * kind (without the check, a template with a media header and no file failed at Meta for every number).
 * Answers a field error when the template is not there or cannot be sent; Meta unreachable is a 503.
 */
async function cloudTemplateOf(deps: AppDeps, actor: Actor, input: CampaignCreateReq): Promise<{ template?: WhatsappTemplate; error?: FieldError }> {
  if (!input.template) return {};
  const channel = await deps.knex('channels').where({ workspaceId: actor.workspaceId, id: input.workspacePlatformId, type: 'whatsapp' }).first('config');
  if (!channel || !isCloudConfig(channel.config ?? {})) return {};
  let templates: WhatsappTemplate[];
  try {
    templates = await listApprovedTemplates({ config: channel.config ?? {} }, deps);
  } catch (err) {
    if (!(err instanceof ChannelSendError)) throw err;
    throw errors.unavailable(`Não foi possível consultar os modelos da linha para conferir a campanha: ${err.message}`);
  }
  const template = templates.find((t) => t.name === input.template!.name && t.language === input.template!.language);
  if (!template) return { error: { key: 'template', descriptions: ['Modelo não encontrado entre os aprovados desta linha.'] } };
  const problem = campaignTemplateProblem(template, Boolean(input.mediaFile));
  return problem ? { template, error: { key: 'template', descriptions: [problem] } } : { template };
}

/**
 * POST /api/campaign: checks what lives in the workspace (the line, the uploaded file, the start day in the
 * workspace's time zone, the plan's parallel campaigns), stores the campaign `waiting_file_processing` and,
 * after commit, starts `campaign:{id}`, which processes the file.
 */
export async function createCampaign(deps: AppDeps, actor: Actor, input: CampaignCreateReq): Promise<Campaign> {
  // Meta is asked before the transaction: no row stays locked during an HTTP call.
  const cloudTemplate = await cloudTemplateOf(deps, actor, input);
  const campaign = await Campaign.transaction(deps.knex, async (trx) => {
    const fields: FieldError[] = [];
    const ws = await trx('workspaces').where({ id: actor.workspaceId }).first('time_zone');
    const channel = await trx('channels').where({ workspaceId: actor.workspaceId, id: input.workspacePlatformId }).first('id', 'type', 'config');
    if (!channel || channel.type !== 'whatsapp') fields.push({ key: 'workspacePlatformId', descriptions: ['Escolha uma linha de WhatsApp deste workspace.'] });
    else if (isCloudConfig(channel.config ?? {}) && !input.template) {
      fields.push({ key: 'template', descriptions: ['Linhas da API oficial só enviam campanhas com um modelo aprovado: escolha o modelo.'] });
    } else if (cloudTemplate.error) fields.push(cloudTemplate.error);
    const file = await uploadOf(trx, actor.workspaceId, input.file);
    const kind = file ? numbersFileKind(file.fileName) : null;
    if (!file) fields.push({ key: 'file', descriptions: ['Arquivo não encontrado: envie o arquivo de novo.'] });
    else if (!kind) fields.push({ key: 'file', descriptions: ['Formato de arquivo não suportado: use .csv, .xls, .xlsx, .txt ou .xml.'] });
    let mediaFile: StoredFileRef | null = null;
    if (input.mediaFile) {
      const media = await uploadOf(trx, actor.workspaceId, input.mediaFile);
      // Any WhatsApp media type on a QR line; on a Cloud line also the template's media header's kind.
      let problem: string | null;
      if (!media) problem = 'Anexo não encontrado: envie o arquivo de novo.';
      else if (cloudTemplate.template) problem = campaignMediaProblem(media, cloudTemplate.template);
      else problem = campaignMediaProblem(media);
      if (problem) fields.push({ key: 'mediaFile', descriptions: [problem] });
      mediaFile = media ?? null;
    }
    const executionDate = input.executionDate ? new Date(input.executionDate) : null;
    if (executionDate) {
      const tz = ws?.timeZone ?? 'America/Sao_Paulo';
      if (dayIn(tz, executionDate) < dayIn(tz, new Date())) fields.push({ key: 'executionDate', descriptions: ['A data de início não pode ser anterior a hoje.'] });
    }
    if (fields.length) throw errors.validation(fields);
    await assertWithinLimit(trx, actor.workspaceId, 'campaign');
    return Campaign.query(trx).insertAndFetch({
      workspaceId: actor.workspaceId,
      channelId: input.workspacePlatformId,
      name: input.name,
      message: input.message as never,
      template: input.template ?? null,
      file: file!.key,
      mediaFile,
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
