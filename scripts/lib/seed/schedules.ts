import type { Knex } from 'knex';
import type { AppDeps } from '../../../api/deps';
import type { AccessLevelValue } from '../../../api/policy/levels';
import { canSeeConversation, loadViewer } from '../../../api/policy/conversations';
import { DEFAULT_TIME_ZONE } from '../../../api/businessHours/schedule';
import { localOf, occurrenceLocal } from '../../../api/schedules/recurrence';
import { cancelSchedule, createSchedule } from '../../../api/schedules/saveSchedule';
import { ScheduleCreateSchema } from '../../../api/schedules/schema';
import type { Member, Team } from './team';

interface DemoSchedule {
  /** The contact of a history conversation (conversations.ts). */
  contact: string;
  by: Member;
  /** Days from today, and the wall-clock time in the workspace. */
  inDays: number;
  time: string;
  repeat?: 'daily' | 'weekly' | 'monthly';
  /** Repetitions after the first (the end date is the last one's day). */
  times?: number;
  text: string;
  /** Attach the file the history already sent (the order form). */
  withFile?: boolean;
  canceled?: boolean;
}

const SCHEDULES: DemoSchedule[] = [
  { contact: 'Mariana Costa', by: 'agent', inDays: 1, time: '09:00', text: 'Bom dia, {{primeiro_nome}}! Seu bolo de chocolate com morango fica pronto hoje às 16h. Protocolo {{protocolo}}.' },
  { contact: 'Fernanda Lima', by: 'supervisor', inDays: 2, time: '08:30', repeat: 'weekly', times: 3, text: 'Olá {{primeiro_nome}}, segue o cardápio de encomendas da semana. Pedidos com 24 horas de antecedência!', withFile: true },
  { contact: 'Ricardo Gomes', by: 'owner', inDays: 3, time: '14:30', text: '{{nome}}, tudo certo para o coffee break de sexta? Podemos confirmar o orçamento?' },
  { contact: 'João Pereira', by: 'agent', inDays: 1, time: '17:00', text: 'Oi {{primeiro_nome}}, sua torta de limão já pode ser retirada.', canceled: true },
];

/**
 * A few scheduled messages in the demo's conversations (docs/scheduled-messages.md), made with the app's own
 * command by the member who would make them (the owner when that member cannot see the conversation): one
 * tomorrow, a weekly one with the order form attached, one in three days and a canceled one. Their workflows
 * start when the worker does (its start-up reconcile tells every pending schedule's workflow).
 */
export async function seedSchedules(trx: Knex.Transaction, team: Team, deps: Pick<AppDeps, 'config' | 'publisher'>, now: Date): Promise<number> {
  const ws = (await trx('workspaces').where({ id: team.workspaceId }).first('time_zone')) as { timeZone?: string } | undefined;
  const zone = ws?.timeZone || DEFAULT_TIME_ZONE;
  const today = localOf(now, zone).slice(0, 10);
  const file = await trx('stored_files').where({ workspaceId: team.workspaceId }).where('file_name', 'like', 'cardapio%').first('key');
  const commandDeps = { knex: trx as unknown as Knex, config: deps.config, publisher: deps.publisher };
  let made = 0;
  for (const s of SCHEDULES) {
    const conversation = await trx('customer_platforms as cp')
      .join('customers as c', 'c.id', 'cp.customer_id')
      .where('cp.workspace_id', team.workspaceId)
      .where('c.name', s.contact)
      .first('cp.id', 'cp.workspace_id', 'cp.operator_id', 'cp.group_id');
    if (!conversation) continue;
    let member: Member = s.by;
    let viewer = await loadViewer(trx, { workspaceId: team.workspaceId, operatorId: team.members[member].id, accessLevel: team.members[member].level as AccessLevelValue });
    if (!canSeeConversation(viewer, conversation)) {
      member = 'owner';
      viewer = await loadViewer(trx, { workspaceId: team.workspaceId, operatorId: team.members.owner.id, accessLevel: 10 });
    }
    const sendAt = occurrenceLocal(`${today}T${s.time}`, 'daily', s.inDays);
    const input = ScheduleCreateSchema.parse({
      conversationId: conversation.id,
      sendAt,
      repeat: s.repeat ?? 'none',
      repeatUntil: s.repeat ? occurrenceLocal(sendAt, s.repeat, s.times ?? 1).slice(0, 10) : null,
      text: s.text,
      file: s.withFile && file ? { key: file.key } : null,
    });
    const saved = await createSchedule(commandDeps, viewer, input, now);
    if (s.canceled) await cancelSchedule(commandDeps, viewer, saved.id);
    made++;
  }
  return made;
}
