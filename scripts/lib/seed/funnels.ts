import type { AppDeps } from '../../../api/deps';
import type { AccessLevelValue } from '../../../api/policy/levels';
import { canSeeConversation, loadViewer } from '../../../api/policy/conversations';
import { createFunnel } from '../../../api/kanban/funnels';
import { FunnelCreateSchema } from '../../../api/kanban/schema';
import { setConversationStage } from '../../../api/kanban/setConversationStage';
import type { Member, Team } from './team';

export const DEMO_FUNNEL_NAME = 'Encomendas';

/** The bakery's order funnel, in the order an order moves. */
const STAGES = [
  { name: 'Novo pedido', color: '#2E90FA' },
  { name: 'Orçamento enviado', color: '#F79009' },
  { name: 'Confirmado', color: '#7A5AF8' },
  { name: 'Em produção', color: '#EE46BC' },
  { name: 'Entregue', color: '#12B76A' },
];

/** Which history conversation (conversations.ts) sits in which stage, moved by whom. */
const PLACES: { contact: string; stage: string; by: Member }[] = [
  { contact: 'Beatriz Nunes', stage: 'Novo pedido', by: 'supervisor' },
  { contact: 'Gabriela Teixeira', stage: 'Novo pedido', by: 'owner' },
  { contact: 'Fernanda Lima', stage: 'Orçamento enviado', by: 'supervisor' },
  { contact: 'Ricardo Gomes', stage: 'Confirmado', by: 'admin' },
  { contact: 'Mariana Costa', stage: 'Em produção', by: 'supervisor' },
  { contact: 'João Pereira', stage: 'Entregue', by: 'agent' },
];

/**
 * The kanban's demo funnel (docs/kanban.md): 'Encomendas' with five stages, and six of the history's
 * conversations in them, each moved with the app's own stage command by the member who would move it (the
 * owner when that member cannot see the conversation), each committed like the request it stands for.
 * Returns how many conversations were placed.
 */
export async function seedFunnels(deps: Pick<AppDeps, 'knex' | 'config' | 'publisher' | 'logger'>, team: Team): Promise<number> {
  const { knex } = deps;
  const funnel = await knex.transaction((trx) => createFunnel(trx, { workspaceId: team.workspaceId }, FunnelCreateSchema.parse({ name: DEMO_FUNNEL_NAME, stages: STAGES })));
  let placed = 0;
  for (const p of PLACES) {
    const conversation = await knex('customer_platforms as cp')
      .join('customers as c', 'c.id', 'cp.customer_id')
      .where('cp.workspace_id', team.workspaceId)
      .where('c.name', p.contact)
      .first('cp.id', 'cp.workspace_id', 'cp.operator_id', 'cp.group_id');
    const stage = funnel.stages.find((s) => s.name === p.stage);
    if (!conversation || !stage) continue;
    let member: Member = p.by;
    let viewer = await loadViewer(knex, { workspaceId: team.workspaceId, operatorId: team.members[member].id, accessLevel: team.members[member].level as AccessLevelValue });
    if (!canSeeConversation(viewer, conversation)) {
      member = 'owner';
      viewer = await loadViewer(knex, { workspaceId: team.workspaceId, operatorId: team.members.owner.id, accessLevel: 10 });
    }
    await setConversationStage(deps, viewer, conversation.id, stage.id);
    placed++;
  }
  return placed;
}
