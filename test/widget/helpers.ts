import type { TestApi } from '../helpers/api';
import type { TestOperator } from '../helpers/factories';

export interface TestWidget {
  id: number;
  identifier: string;
  workspaceId: number;
}

/** A chat widget channel made through the admin API. */
export async function makeWidget(api: TestApi, owner: TestOperator, description = 'Chat do site', avatar = '#1570EF'): Promise<TestWidget> {
  const res = await api.request('POST', '/api/integrations/widget', { token: owner.token, body: { description, avatar } });
  if (res.status !== 201) throw new Error(`widget not created: ${JSON.stringify(res.body)}`);
  return { id: res.body.data.id, identifier: res.body.data.identifier, workspaceId: owner.workspaceId };
}

export interface TestVisitor {
  id: string;
  token: string;
  conversationId: number;
}

/** A visitor's first contact (no token) through the public API. */
export async function firstContact(api: TestApi, widget: TestWidget, text = 'Olá', extra: Record<string, unknown> = {}): Promise<TestVisitor> {
  const res = await api.request('POST', '/api/v1/widget/messages', { body: { content: text, type: 'text', identifier: widget.identifier, ...extra } });
  if (res.status !== 201) throw new Error(`first contact refused: ${res.status} ${JSON.stringify(res.body)}`);
  const { visitor } = res.body.data;
  const row = await api.deps.knex('customer_platforms').where({ channelId: widget.id, externalId: visitor.id }).first('id');
  return { id: visitor.id, token: visitor.token, conversationId: row.id };
}

/** A message straight into the visitor's conversation (notes and system lines the inbox would write). */
export async function insertMessage(
  api: TestApi,
  conversationId: number,
  fields: { type: number; sender: string; text: string; operatorId?: number | null },
): Promise<number> {
  const knex = api.deps.knex;
  const cp = await knex('customer_platforms').where({ id: conversationId }).first('workspace_id', 'current_call_id');
  const [row] = await knex('messages')
    .insert({
      workspaceId: cp.workspaceId,
      customerPlatformId: conversationId,
      callId: cp.currentCallId,
      type: fields.type,
      sender: fields.sender,
      operatorId: fields.operatorId ?? null,
      content: JSON.stringify([{ insert: `${fields.text}\n` }]),
      text: fields.text,
    })
    .returning('id');
  return row.id;
}
