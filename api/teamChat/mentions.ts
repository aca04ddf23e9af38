import type { Knex } from 'knex';
import { visibilityCondition, type ConversationViewer } from '../policy/conversations';
import { mentionedProtocols } from './schema';
import type { MentionView } from './views';

export type { MentionView };

/**
 * The conversations behind the `#protocolo` mentions of some messages, as this reader may see them: a
 * protocol of a call whose conversation the reader could not open (SPEC §6, api/policy/conversations.ts),
 * or of another workspace, or of no call at all, is not linked and says nothing about whether it exists.
 * One query for the whole page. Keyed by protocol.
 */
export async function resolveMentions(db: Knex | Knex.Transaction, viewer: ConversationViewer, texts: string[]): Promise<Map<number, MentionView>> {
  const protocols = [...new Set(texts.flatMap((t) => mentionedProtocols(t)))].slice(0, 500);
  const out = new Map<number, MentionView>();
  if (!protocols.length) return out;
  const visible = visibilityCondition(viewer, 'cp');
  const rows: { protocol: string | number; id: number; isFinished: boolean; name: string | null }[] = await db('calls as k')
    .join('customer_platforms as cp', function () {
      this.on('cp.id', '=', 'k.customer_platform_id').andOn('cp.workspace_id', '=', 'k.workspace_id');
    })
    .leftJoin('customers as cu', function () {
      this.on('cu.id', '=', 'cp.customer_id').andOn('cu.workspace_id', '=', 'cp.workspace_id');
    })
    .where('k.workspace_id', viewer.workspaceId)
    .whereIn('k.protocol', protocols)
    .whereRaw(`(${visible.sql})`, visible.bindings)
    .select('k.protocol', 'cp.id', 'cp.is_finished', 'cu.name');
  for (const r of rows) out.set(Number(r.protocol), { protocol: Number(r.protocol), conversationId: r.id, isFinished: r.isFinished, contactName: r.name });
  return out;
}

/** The mentions of one message text that resolved, in the order they appear. */
export function mentionsOf(text: string, resolved: Map<number, MentionView>): MentionView[] {
  return mentionedProtocols(text)
    .map((p) => resolved.get(p))
    .filter((m): m is MentionView => m !== undefined);
}
