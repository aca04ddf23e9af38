import type { Knex } from 'knex';

type Db = Knex | Knex.Transaction;

/** The contact's values by code for an integration: name, email, phone and every custom property. */
export async function customerValues(db: Db, workspaceId: number, customerId: number): Promise<Record<string, string>> {
  const customer = await db('customers').where({ workspaceId, id: customerId }).first('name', 'email', 'phone');
  const props = await db('customer_properties').where({ workspaceId, customerId }).select('code', 'value');
  const values: Record<string, string> = { name: customer?.name ?? '', email: customer?.email ?? '', phone: customer?.phone ?? '' };
  for (const p of props as { code: string; value: string }[]) values[p.code] = p.value;
  return values;
}

/**
 * Fills `{{code}}` placeholders (spaces inside the braces allowed); an unknown code becomes empty. In a
 * URL the value is percent-encoded; in a body it is escaped as the inside of a JSON string, so
 * `{"cpf": "{{cpf}}"}` stays valid JSON whatever the contact typed.
 */
export function fillPlaceholders(template: string, values: Record<string, string>, mode: 'url' | 'json' | 'text'): string {
  return template.replace(/\{\{\s*([a-z][a-z0-9_]*)\s*\}\}/g, (_, code: string) => {
    const v = values[code] ?? '';
    if (mode === 'url') return encodeURIComponent(v);
    if (mode === 'json') return JSON.stringify(v).slice(1, -1);
    return v.replace(/[\r\n]/g, ' ');
  });
}

/** A dot path into parsed JSON (`data.items.0.status`); undefined when any step is missing. */
export function readPath(value: unknown, path: string): unknown {
  let current = value;
  for (const part of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = Array.isArray(current) ? current[Number(part)] : (current as Record<string, unknown>)[part];
  }
  return current;
}
