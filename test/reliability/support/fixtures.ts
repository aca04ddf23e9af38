import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { makeOperator, makeWorkspace, type TestOperator, type TestWorkspace } from '../../helpers/factories';
import { JWT_SECRET, type ChildApi } from './childApi';

export interface Team {
  ws: TestWorkspace;
  owner: TestOperator;
  widget: { id: number; identifier: string };
}

/** A workspace with an owner (who sees every conversation) and a widget channel made through the child's API. */
export async function makeTeam(knex: Knex, api: ChildApi): Promise<Team> {
  const ws = await makeWorkspace(knex);
  const owner = await makeOperator(knex, JWT_SECRET, ws, 10);
  const res = await api.request('POST', '/api/integrations/widget', { token: owner.token, body: { description: 'Chat do site', avatar: '#1570EF' } });
  if (res.status !== 201) throw new Error(`widget not created: ${res.status} ${JSON.stringify(res.body)}`);
  return { ws, owner, widget: { id: res.body.data.id, identifier: res.body.data.identifier } };
}

export const clientMessageId = () => `m${randomBytes(8).toString('hex')}`;

export interface Visitor {
  id: string;
  token: string;
}

/** A visitor's first contact (no token) through the public widget API. */
export async function firstContact(api: ChildApi, team: Team, text = 'Olá'): Promise<Visitor & { messageId: number }> {
  const res = await api.request('POST', '/api/v1/widget/messages', { body: { content: text, type: 'text', identifier: team.widget.identifier, clientMessageId: clientMessageId() } });
  if (res.status !== 201) throw new Error(`first contact refused: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.data.visitor.id, token: res.body.data.visitor.token, messageId: res.body.data.message.id };
}

/** One visitor message with its idempotency key; throws on a network failure (the caller may retry). */
export function sendAsVisitor(api: ChildApi, team: Team, visitor: Visitor, text: string, id: string) {
  return api.request('POST', '/api/v1/widget/messages', {
    token: visitor.token,
    body: { content: text, type: 'text', identifier: team.widget.identifier, clientMessageId: id },
  });
}

/** The DESIGN.md §3 error shape: `{errors: [{type, title, descriptions[]}]}`. */
export function isErrorShape(body: unknown): boolean {
  const errors = (body as { errors?: unknown } | undefined)?.errors;
  return (
    Array.isArray(errors) &&
    errors.length > 0 &&
    errors.every((e: { type?: unknown; title?: unknown; descriptions?: unknown }) => typeof e.type === 'string' && typeof e.title === 'string' && Array.isArray(e.descriptions))
  );
}

export async function eventually<T>(probe: () => Promise<T | undefined | false>, timeoutMs: number, what: string): Promise<T> {
  const until = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v !== undefined && v !== false) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > until) throw new Error(`timed out: ${what}${last ? ` (${String(last)})` : ''}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
