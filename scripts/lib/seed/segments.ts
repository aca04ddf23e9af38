import type { Knex } from 'knex';
import { saveSegment } from '../../../api/segments/saveSegment';
import { setSegmentSubscription } from '../../../api/segments/subscribeSegment';
import { SegmentSaveSchema } from '../../../api/segments/schema';
import type { Actor } from '../../../api/policy/policy';
import type { AccessLevelValue } from '../../../api/policy/levels';
import type { Member, Team } from './team';

export const DEMO_SEGMENT_NAME = 'Vendas em aberto';

/**
 * A public saved filter ('Vendas em aberto': open conversations of the Vendas group), saved by the owner
 * with the filter editor's schema and command, and in the sidebar of the owner and the sales team.
 */
export async function seedSegments(trx: Knex.Transaction, team: Team): Promise<number> {
  const actor = (m: Member): Actor => ({ workspaceId: team.workspaceId, operatorId: team.members[m].id, accessLevel: team.members[m].level as AccessLevelValue, kind: 'operator' });
  const input = SegmentSaveSchema.parse({ name: DEMO_SEGMENT_NAME, icon: '#12B76A', isPublic: true, inbox: 'workspace', filters: { open: true, groups: [team.groups.vendas] } });
  const segment = await saveSegment({ knex: trx }, actor('owner'), input);
  for (const m of ['owner', 'supervisor', 'agent'] as const) await setSegmentSubscription({ knex: trx }, actor(m), segment.id, true);
  return segment.id;
}
