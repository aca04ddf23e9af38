import type { Knex } from 'knex';
import { likePattern } from '../http/listQuery';
import { visibilityCondition, type ConversationViewer } from '../policy/conversations';
import type { PropertySuggestionsQuery } from './schema';

export interface PropertySuggestion {
  property: string;
  /** null on a property-name suggestion. */
  value: string | null;
}

/**
 * GET /customer/properties for the filter editor, from contacts the viewer can reach. Without `value`:
 * the property codes containing `property` (value null), followed by the values of the property named
 * exactly `property`, so one call serves both the name field and an empty value field. With `value`: the
 * values of that property containing it. Each list holds at most `limit` entries.
 */
export async function suggestProperties(db: Knex, viewer: ConversationViewer, input: PropertySuggestionsQuery): Promise<PropertySuggestion[]> {
  const visible = visibilityCondition(viewer, 'vcp');
  const reachable = () =>
    db('customer_properties as p')
      .where('p.workspace_id', viewer.workspaceId)
      .whereRaw(`EXISTS (SELECT 1 FROM customer_platforms vcp WHERE vcp.customer_id = p.customer_id AND (${visible.sql}))`, visible.bindings);
  const valuesOf = (code: string, contains?: string) => {
    const q = reachable().where('p.code', code).distinct('p.value').orderBy('p.value').limit(input.limit);
    if (contains) q.where('p.value', 'ilike', likePattern(contains));
    return q.then((rows: { value: string }[]) => rows.map((r) => ({ property: code, value: r.value })));
  };

  if (input.value !== undefined) return valuesOf(input.property, input.value);
  const codes = reachable().distinct('p.code').orderBy('p.code').limit(input.limit);
  if (input.property) codes.where('p.code', 'ilike', likePattern(input.property.toLowerCase()));
  const [names, values] = await Promise.all([
    codes.then((rows: { code: string }[]) => rows.map((r) => ({ property: r.code, value: null }))),
    input.property ? valuesOf(input.property) : [],
  ]);
  return [...names, ...values];
}
