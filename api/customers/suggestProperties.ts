import type { Knex } from 'knex';
import { likePattern } from '../http/listQuery';
import { visibilityCondition, type ConversationViewer } from '../policy/conversations';
import type { PropertySuggestionsQuery } from './schema';

/**
 * GET /customer/properties: distinct {property (code), value} pairs for the filter editor. Without `value`
 * the code is matched by substring; with it, the code exactly and the value by substring. Only properties
 * of contacts the viewer can reach are suggested.
 */
export async function suggestProperties(db: Knex, viewer: ConversationViewer, input: PropertySuggestionsQuery): Promise<{ property: string; value: string }[]> {
  const visible = visibilityCondition(viewer, 'vcp');
  const q = db('customer_properties as p')
    .where('p.workspace_id', viewer.workspaceId)
    .whereRaw(`EXISTS (SELECT 1 FROM customer_platforms vcp WHERE vcp.customer_id = p.customer_id AND (${visible.sql}))`, visible.bindings)
    .distinct('p.code as property', 'p.value')
    .orderBy([{ column: 'property' }, { column: 'p.value' }])
    .limit(input.limit);
  if (input.value === undefined) {
    if (input.property) q.where('p.code', 'ilike', likePattern(input.property.toLowerCase()));
  } else {
    q.where('p.code', input.property);
    if (input.value) q.where('p.value', 'ilike', likePattern(input.value));
  }
  return q;
}
