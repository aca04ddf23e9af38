import type { AppDeps } from '../deps';
import { errors, type FieldError } from '../http/errors';
import { findVisibleConversation, loadChannel } from '../conversations/queries';
import type { ConversationViewer } from '../policy/conversations';
import { DEFAULT_TIME_ZONE } from '../businessHours/schedule';
import { whatsappWindow } from '../channels/whatsapp/window';
import { lineTemplates, templateValueErrors } from '../channels/whatsapp/templates';
import type { StoredFileRef } from '../models/StoredFile';
import { occurrence } from './recurrence';
import { MAX_SCHEDULE_DAYS, SCHEDULE_MESSAGES, type ScheduleCreateReq, type ScheduleUpdateReq } from './schema';
import { lockSchedule, type StoredScheduleTemplate } from './queries';
import { mayChangeSchedule } from './presenters';

/** What saving needs: the database, and for WhatsApp Cloud templates the line's provider and realtime (a refused token). */
export type ScheduleDeps = Pick<AppDeps, 'knex' | 'config' | 'publisher'>;

export const SCHEDULE_TEXTS = {
  templateNeeded: 'Fora da janela de 24 horas do WhatsApp só é possível enviar um modelo aprovado. Escolha um modelo.',
  templateNeededRepeat: 'Mensagens repetidas no WhatsApp (API oficial) precisam de um modelo aprovado: a janela de 24 horas pode estar fechada em cada envio.',
  noTemplates: 'Modelos de mensagem só existem em linhas da API oficial do WhatsApp.',
  templateNotFound: 'Modelo não encontrado ou não aprovado nesta linha.',
  fileNotFound: 'Arquivo não encontrado. Envie o arquivo novamente.',
  notPending: 'Só é possível alterar ou cancelar um agendamento que ainda não foi enviado.',
  notYours: 'Só quem agendou ou um supervisor pode alterar ou cancelar este agendamento.',
} as const;

interface Prepared {
  timeZone: string;
  startsLocal: string;
  dueAt: Date;
  text: string;
  file: StoredFileRef | null;
  template: StoredScheduleTemplate | null;
}

/**
 * Checks a schedule against the conversation it goes into and reports every failing field at once: the first
 * send in the future (at most MAX_SCHEDULE_DAYS ahead) on the workspace's wall clock, the file an upload of
 * this workspace, and on a WhatsApp Cloud line the 24-hour window: a send that may fall outside it (due
 * after the window closes, or repeating) needs an approved template of the line, kept with its values.
 */
async function prepare(deps: ScheduleDeps, workspaceId: number, conversation: { id: number; channelId: number }, input: ScheduleUpdateReq, now: Date): Promise<Prepared> {
  const fields: FieldError[] = [];
  const fail = (key: string, description: string) => fields.push({ key, descriptions: [description] });
  const ws = (await deps.knex('workspaces').where({ id: workspaceId }).first('time_zone')) as { timeZone?: string } | undefined;
  const timeZone = ws?.timeZone || DEFAULT_TIME_ZONE;
  const first = occurrence({ startsLocal: input.sendAt, timeZone, repeat: input.repeat, repeatUntil: input.repeatUntil }, 0)!;
  if (first.dueAt.getTime() <= now.getTime()) fail('sendAt', SCHEDULE_MESSAGES.past);
  else if (first.dueAt.getTime() > now.getTime() + MAX_SCHEDULE_DAYS * 86_400_000) fail('sendAt', SCHEDULE_MESSAGES.tooFar);

  let file: StoredFileRef | null = null;
  if (input.file) {
    const row = await deps.knex('stored_files').where({ workspaceId, key: input.file.key }).first('key', 'file_name', 'mime', 'size');
    if (row) file = { key: row.key, fileName: row.fileName, mime: row.mime, size: Number(row.size) };
    else fail('file', SCHEDULE_TEXTS.fileNotFound);
  }

  const channel = await loadChannel(deps.knex, workspaceId, conversation.channelId);
  const window = await whatsappWindow(deps, conversation.id, channel, now.getTime());
  let template: StoredScheduleTemplate | null = null;
  if (input.template) {
    if (!window.cloud) fail('template', SCHEDULE_TEXTS.noTemplates);
    else {
      const found = (await lineTemplates(deps, channel)).find((t) => t.name === input.template!.name && t.language === input.template!.language);
      if (!found) fail('template.name', SCHEDULE_TEXTS.templateNotFound);
      else if (!found.supported) fail('template.name', found.unsupportedReason ?? SCHEDULE_TEXTS.templateNotFound);
      else {
        const values = { header: input.template.header ?? {}, body: input.template.body ?? {} };
        for (const e of templateValueErrors(found, values)) fields.push({ key: `template.${e.key}`, descriptions: e.descriptions });
        template = { name: found.name, language: found.language, header: values.header, body: values.body, definition: found };
      }
    }
  } else if (window.cloud) {
    if (input.repeat !== 'none') fail('template', SCHEDULE_TEXTS.templateNeededRepeat);
    else if (!window.closesAt || Date.parse(window.closesAt) <= first.dueAt.getTime()) fail('template', SCHEDULE_TEXTS.templateNeeded);
  }
  if (fields.length) throw errors.validation(fields);
  // A template is the whole message: the text box is not sent beside it.
  return { timeZone, startsLocal: input.sendAt, dueAt: first.dueAt, text: template ? '' : input.text, file, template };
}

const columns = (p: Prepared, input: ScheduleUpdateReq) => ({
  timeZone: p.timeZone,
  startsLocal: p.startsLocal,
  dueAt: p.dueAt,
  repeat: input.repeat,
  repeatUntil: input.repeatUntil,
  occurrence: 0,
  text: p.text,
  file: p.file ? JSON.stringify(p.file) : null,
  template: p.template ? JSON.stringify(p.template) : null,
});

export interface Saved {
  id: number;
  workspaceId: number;
  revision: number;
}

/**
 * POST /schedules: anyone who may see the conversation may schedule in it (SPEC §6); another workspace's
 * conversation, or one the viewer cannot see, is a 404. The workflow is told after commit by the caller.
 */
export async function createSchedule(deps: ScheduleDeps, viewer: ConversationViewer, input: ScheduleCreateReq, now = new Date()): Promise<Saved> {
  const conversation = await findVisibleConversation(deps.knex, viewer, input.conversationId);
  const prepared = await prepare(deps, viewer.workspaceId, conversation, input, now);
  const [row] = await deps.knex('scheduled_messages')
    .insert({ workspaceId: viewer.workspaceId, customerPlatformId: conversation.id, channelId: conversation.channelId, operatorId: viewer.operatorId, state: 'scheduled', ...columns(prepared, input) })
    .returning(['id', 'workspace_id', 'revision']);
  return { id: Number(row.id), workspaceId: row.workspaceId, revision: row.revision };
}

/** The row locked, visible to the viewer (its conversation), pending, and theirs to change (or the viewer at 6+). */
async function lockChangeable(trx: Parameters<typeof lockSchedule>[0], viewer: ConversationViewer, id: number) {
  const row = await lockSchedule(trx, viewer.workspaceId, id);
  const conversation = row && (await findVisibleConversation(trx, viewer, row.customerPlatformId).catch(() => undefined));
  if (!row || !conversation) throw errors.notFound('Agendamento não encontrado.');
  if (!mayChangeSchedule(viewer, row)) throw errors.forbidden(SCHEDULE_TEXTS.notYours);
  if (row.state !== 'scheduled') throw errors.conflict(SCHEDULE_TEXTS.notPending);
  return { row, conversation };
}

/** PUT /schedules/{id}: a pending schedule gets new time, repetition and content; its count of sends stays. */
export async function updateSchedule(deps: ScheduleDeps, viewer: ConversationViewer, id: number, input: ScheduleUpdateReq, now = new Date()): Promise<Saved> {
  // Checked before preparing: a foreign id is a 404 without a call to the provider.
  const before = await deps.knex.transaction((trx) => lockChangeable(trx, viewer, id));
  const prepared = await prepare(deps, viewer.workspaceId, before.conversation, input, now);
  return deps.knex.transaction(async (trx) => {
    const { row } = await lockChangeable(trx, viewer, id);
    await trx('scheduled_messages')
      .where({ id: row.id })
      .update({ ...columns(prepared, input), error: null, revision: row.revision + 1, updatedAt: trx.fn.now() });
    return { id: row.id, workspaceId: row.workspaceId, revision: row.revision + 1 };
  });
}

/** POST /schedules/{id}/cancel: a pending schedule is canceled (kept in the list as cancelada). */
export async function cancelSchedule(deps: Pick<ScheduleDeps, 'knex'>, viewer: ConversationViewer, id: number): Promise<Saved> {
  return deps.knex.transaction(async (trx) => {
    const { row } = await lockChangeable(trx, viewer, id);
    await trx('scheduled_messages')
      .where({ id: row.id })
      .update({ state: 'canceled', canceledBy: viewer.operatorId, canceledAt: trx.fn.now(), revision: row.revision + 1, updatedAt: trx.fn.now() });
    return { id: row.id, workspaceId: row.workspaceId, revision: row.revision + 1 };
  });
}
