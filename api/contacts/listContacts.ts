import type { Knex } from 'knex';
import { errors } from '../http/errors';
import { contactMatch } from '../models/contactMatch';
import type { ConversationViewer } from '../policy/conversations';
import { contactPage } from '../reports/lists';
import type { ContactListQuery } from './schema';
import { visibleCustomers } from '../customers/queries';

export interface ContactListRow {
  id: number;
  name: string | null;
  phone: string | null;
  email: string | null;
  avatar: string | null;
  createdAt: Date;
  /** The channels of the contact's conversations the viewer may see, with SPEC §2's labels. */
  channels: { type: string; label: string }[];
}

/**
 * GET /customer (the Contacts page, docs/contacts.md): the contacts the viewer may reach, newest first,
 * searched by name, phone or e-mail and filtered by channel type, tag (applied in any of their calls) and
 * 'Contato criado entre' (local days of the workspace's time zone, as the contacts report).
 */
export async function listContacts(db: Knex, viewer: ConversationViewer, q: ContactListQuery) {
  const ws = viewer.workspaceId;
  if (q.tags?.length) {
    const known = await db('labels').where('workspace_id', ws).whereIn('id', q.tags).count({ n: '*' }).first();
    if (Number(known?.n ?? 0) !== new Set(q.tags).size) throw errors.field('tags', 'Etiqueta inválida.');
  }
  const base = visibleCustomers(db, viewer);
  if (q.query) {
    const m = contactMatch('c', q.query);
    base.whereRaw(m.sql, m.bindings);
  }
  if (q.channels?.length) {
    base.whereExists(db('customer_platforms as fcp').join('channels as fch', 'fch.id', 'fcp.channel_id').whereRaw('fcp.customer_id = c.id').whereIn('fch.type', q.channels).select(1));
  }
  if (q.tags?.length) {
    base.whereExists(
      db('call_labels as cl')
        .join('calls as k', 'k.id', 'cl.call_id')
        .join('customer_platforms as tcp', 'tcp.id', 'k.customer_platform_id')
        .where('cl.workspace_id', ws)
        .whereRaw('tcp.customer_id = c.id')
        .whereIn('cl.label_id', q.tags)
        .select(1),
    );
  }
  if (q.from || q.to) {
    const zone = ((await db('workspaces').where('id', ws).first('time_zone')) as { timeZone?: string } | undefined)?.timeZone ?? 'America/Sao_Paulo';
    if (q.from) base.where('c.created_at', '>=', db.raw('(?::date)::timestamp AT TIME ZONE ?', [q.from, zone]));
    if (q.to) base.where('c.created_at', '<', db.raw('(?::date + 1)::timestamp AT TIME ZONE ?', [q.to, zone]));
  }
  return contactPage<Omit<ContactListRow, 'id' | 'channels'>>(db, viewer, base, ['c.name', 'c.phone', 'c.email', 'c.avatar', 'c.created_at'], q.limit, q.offset);
}
