import type { Knex } from 'knex';
import type { AppDeps } from '../../../api/deps';
import type { Actor } from '../../../api/policy/policy';
import type { AccessLevelValue } from '../../../api/policy/levels';
import { createRoom, openDirect } from '../../../api/teamChat/rooms';
import { markRead, postMessage } from '../../../api/teamChat/messages';
import { TeamMessageSchema } from '../../../api/teamChat/schema';
import type { GroupKey, Member, Team } from './team';

type Where = { group: GroupKey } | { room: string } | { direct: [Member, Member] };

interface DemoLine {
  where: Where;
  by: Member;
  /** Minutes before now. */
  ago: number;
  /** `{protocolo:Contact}` is replaced by the protocol of that contact's current call. */
  text: string;
}

/** A room created by the owner (level 10) with these members. */
const ROOMS = { gerencia: { name: 'Gerência', members: ['owner', 'admin', 'supervisor'] as Member[] } };

const LINES: DemoLine[] = [
  { where: { group: 'vendas' }, by: 'supervisor', ago: 190, text: 'Bom dia, time! Hoje temos três encomendas de bolo para retirar até as 16h.' },
  { where: { group: 'vendas' }, by: 'agent', ago: 182, text: 'Já separei as caixas. A da Mariana é a do {protocolo:Mariana Costa}, ela pediu vela de número 30.' },
  { where: { group: 'atendimento' }, by: 'restricted', ago: 150, text: 'Alguém sabe se ainda temos pão sem glúten?' },
  { where: { group: 'atendimento' }, by: 'agent', ago: 146, text: 'Tem sim, saiu fornada às 10h. O João perguntou a mesma coisa no {protocolo:João Pereira}.' },
  { where: { room: 'gerencia' }, by: 'owner', ago: 120, text: 'Reunião de fechamento do mês na sexta às 17h, aqui na loja.' },
  { where: { room: 'gerencia' }, by: 'admin', ago: 95, text: 'Combinado, levo o relatório de vendas e o das avaliações.' },
  { where: { direct: ['owner', 'agent'] }, by: 'owner', ago: 60, text: 'Alice, você pode cobrir o caixa amanhã de manhã?' },
  { where: { direct: ['owner', 'agent'] }, by: 'agent', ago: 42, text: 'Posso sim! Chego às 7h.' },
];

/**
 * The team chat of the demo (docs/team-chat.md), written with the chat's own commands by the member who
 * would write each line: the two groups' rooms (one line mentions a conversation by its protocol, linked for
 * who may open it), a room 'Gerência' the owner created, and a direct conversation between the owner and
 * Alice. The owner's last two are unread by the owner's login (the header's badge shows 2); everyone has
 * read up to what they wrote.
 */
export async function seedTeamChat(trx: Knex.Transaction, team: Team, deps: Pick<AppDeps, 'config' | 'publisher' | 'logger'>, now: Date): Promise<number> {
  let at = now.getTime();
  const commandDeps = { knex: trx as unknown as Knex, config: deps.config, publisher: deps.publisher, logger: deps.logger, clock: () => at };
  const actor = (m: Member): Actor => ({ workspaceId: team.workspaceId, operatorId: team.members[m].id, accessLevel: team.members[m].level as AccessLevelValue, kind: 'operator' });
  const rooms = new Map<string, number>();
  for (const [key, r] of Object.entries(ROOMS)) {
    const created = await createRoom(commandDeps, actor('owner'), { name: r.name, members: r.members.map((m) => team.members[m].id) });
    rooms.set(key, created.id);
  }
  const roomOf = async (where: Where, by: Member): Promise<number> => {
    if ('group' in where) return (await trx('team_rooms').where({ workspaceId: team.workspaceId, groupId: team.groups[where.group] }).first('id')).id as number;
    if ('room' in where) return rooms.get(where.room)!;
    const other = where.direct.find((m) => m !== by)!;
    return (await openDirect(commandDeps, actor(by), { operatorId: team.members[other].id })).room.id;
  };
  const protocolOf = async (contact: string): Promise<string> => {
    const row = await trx('customer_platforms as cp')
      .join('customers as c', 'c.id', 'cp.customer_id')
      .join('calls as k', 'k.id', 'cp.current_call_id')
      .where('cp.workspace_id', team.workspaceId)
      .where('c.name', contact)
      .first('k.protocol');
    return row?.protocol ? `#${row.protocol}` : '';
  };
  let written = 0;
  for (const line of LINES) {
    let text = line.text;
    for (const m of text.matchAll(/\{protocolo:([^}]+)\}/g)) text = text.replace(m[0], await protocolOf(m[1]!));
    const roomId = await roomOf(line.where, line.by);
    at = now.getTime() - line.ago * 60_000;
    await postMessage(commandDeps, actor(line.by), roomId, TeamMessageSchema.parse({ body: text }));
    written++;
  }
  // Those who only read a room read it (Alice read the Vendas room she answered in; Sérgio read her answer).
  at = now.getTime();
  const vendas = await roomOf({ group: 'vendas' }, 'supervisor');
  await markRead(commandDeps, actor('supervisor'), vendas, {});
  return written;
}
