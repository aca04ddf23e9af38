import { AccessLevel } from '../policy/levels';
import type { ConversationViewer } from '../policy/conversations';
import { localOf, type Repeat } from './recurrence';
import type { ScheduleListRow } from './queries';
import type { ScheduleState } from './schema';

/** A schedule as the API answers it (docs/scheduled-messages.md "API"). */
export interface ScheduleView {
  id: number;
  conversationId: number;
  contactName: string | null;
  channel: { id: number; name: string; type: string };
  operator: { id: number; name: string } | null;
  /** scheduled (agendada), sent (enviada), failed (falhou), canceled (cancelada). */
  state: ScheduleState;
  /** Why it failed: the send's own reason or the delivery's; for a repeating one, the last occurrence's. */
  error: string | null;
  /** The next (or, once over, the last) send: wall clock in `timeZone` and instant. */
  sendAt: string;
  dueAt: string;
  timeZone: string;
  /** The first occurrence's wall clock (repetitions count from it). */
  startsAt: string;
  repeat: Repeat;
  repeatUntil: string | null;
  text: string;
  file: { key: string; fileName: string; mime: string; size: number } | null;
  template: { name: string; language: string; header: Record<string, string>; body: Record<string, string> } | null;
  sentCount: number;
  lastSentAt: string | null;
  lastMessageId: number | null;
  canceledAt: string | null;
  createdAt: string;
  updatedAt: string;
  /** The viewer may edit or cancel it: still pending, and theirs or the viewer at level 6+. */
  canEdit: boolean;
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** Who may change a pending schedule: its author, or a supervisor (level 6+) who sees its conversation. */
export function mayChangeSchedule(viewer: Pick<ConversationViewer, 'operatorId' | 'accessLevel'>, row: { operatorId: number | null }): boolean {
  return row.operatorId === viewer.operatorId || viewer.accessLevel >= AccessLevel.MASTER;
}

export function presentSchedule(row: ScheduleListRow, viewer: Pick<ConversationViewer, 'operatorId' | 'accessLevel'>): ScheduleView {
  const dueAt = new Date(row.dueAt);
  return {
    id: Number(row.id),
    conversationId: Number(row.customerPlatformId),
    contactName: row.contactName,
    channel: { id: row.channelId, name: row.channelName, type: row.channelType },
    operator: row.operatorId !== null ? { id: row.operatorId, name: row.operatorName ?? '' } : null,
    state: row.effectiveState,
    error: row.error ?? (row.deliveryState === 'failed' ? row.deliveryError : null),
    sendAt: localOf(dueAt, row.timeZone),
    dueAt: dueAt.toISOString(),
    timeZone: row.timeZone,
    startsAt: row.startsLocal,
    repeat: row.repeat,
    repeatUntil: row.repeatUntil,
    text: row.text,
    file: row.file ? { key: row.file.key, fileName: row.file.fileName, mime: row.file.mime, size: Number(row.file.size) } : null,
    template: row.template ? { name: row.template.name, language: row.template.language, header: row.template.header ?? {}, body: row.template.body ?? {} } : null,
    sentCount: row.sentCount,
    lastSentAt: iso(row.lastSentAt),
    lastMessageId: row.lastMessageId === null ? null : Number(row.lastMessageId),
    canceledAt: iso(row.canceledAt),
    createdAt: iso(row.createdAt)!,
    updatedAt: iso(row.updatedAt)!,
    canEdit: row.state === 'scheduled' && mayChangeSchedule(viewer, row),
  };
}
