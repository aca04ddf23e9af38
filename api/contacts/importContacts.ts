import type { Knex } from 'knex';
import { parseString } from '@fast-csv/parse';
import { z } from 'zod';
import { normalizeCampaignPhone } from '../campaigns/phone';
import { errors } from '../http/errors';
import type { ConversationViewer } from '../policy/conversations';
import { can, type Actor } from '../policy/policy';
import { IMPORT_MAX_ROWS, IMPORT_TOO_MANY_ROWS } from './schema';
import { propertyCode } from '../customers/schema';

/**
 * Contacts from a CSV file (docs/contacts.md "Importar"): columns name, phone and email (Portuguese headers
 * too), every other column a custom property named by its header. The preview and the commit read the file
 * the same way; a row whose phone or e-mail belongs to a contact updates that contact instead of creating
 * a second one.
 */

type Db = Knex | Knex.Transaction;

const FIXED_HEADERS: Record<string, 'name' | 'phone' | 'email'> = {
  name: 'name',
  nome: 'name',
  phone: 'phone',
  telefone: 'phone',
  celular: 'phone',
  whatsapp: 'phone',
  email: 'email',
};

export interface ImportColumn {
  header: string;
  /** name, phone, email or the custom property's code; null: a header without letters, left out. */
  field: string | null;
}

export interface ImportRow {
  /** The row's line in the file (the header is line 1). */
  line: number;
  name: string | null;
  phone: string | null;
  email: string | null;
  properties: { label: string; code: string; value: string }[];
  errors: string[];
  /** What committing does with the row: create a contact, update the one it matches, or nothing (errors). */
  action: 'create' | 'update' | 'skip';
  customerId: number | null;
}

export interface ImportPreview {
  columns: ImportColumn[];
  rows: ImportRow[];
  summary: { create: number; update: number; skip: number };
}

const headerKey = (h: string) =>
  h
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z]/g, '');

/** ';' (Excel in pt-BR), ',' or tab, by which the header line holds most of. */
function sniffDelimiter(text: string): string {
  const head = text.slice(0, text.indexOf('\n') === -1 ? undefined : text.indexOf('\n'));
  const counts = [';', ',', '\t'].map((d) => [d, head.split(d).length] as const);
  counts.sort((a, b) => b[1] - a[1]);
  return counts[0]![0];
}

async function csvRows(content: string): Promise<string[][]> {
  const text = content.replace(/^\uFEFF/, '');
  const rows: string[][] = [];
  await new Promise<void>((resolve, reject) => {
    parseString(text, { delimiter: sniffDelimiter(text), ignoreEmpty: true, trim: true, maxRows: IMPORT_MAX_ROWS + 2 })
      .on('error', reject)
      .on('data', (row: string[]) => rows.push(row))
      .on('end', () => resolve());
  });
  return rows;
}

const isEmail = (v: string) => z.email().safeParse(v).success;

/** The file's rows, checked one by one (no database yet). */
async function readRows(content: string): Promise<{ columns: ImportColumn[]; rows: ImportRow[] }> {
  let table: string[][];
  try {
    table = await csvRows(content);
  } catch {
    throw errors.field('content', 'Não foi possível ler o arquivo: envie um .csv separado por vírgula ou ponto e vírgula.');
  }
  const [header, ...body] = table;
  if (!header || !body.length) throw errors.field('content', 'O arquivo não tem contatos: a primeira linha traz os nomes das colunas e as seguintes, os contatos.');
  if (body.length > IMPORT_MAX_ROWS) throw errors.field('content', IMPORT_TOO_MANY_ROWS);
  const seen = new Set<string>();
  const columns: ImportColumn[] = header.map((raw) => {
    const key = headerKey(raw);
    const fixed = FIXED_HEADERS[key];
    const field = fixed ?? (propertyCode(raw) || null);
    if (field && seen.has(field)) return { header: raw, field: null };
    if (field) seen.add(field);
    return { header: raw, field };
  });
  if (!columns.some((c) => c.field === 'phone' || c.field === 'email')) {
    throw errors.field('content', 'O arquivo precisa de uma coluna phone (ou telefone) ou email.');
  }
  const firstLineOf = new Map<string, number>();
  const rows = body.map((cells, i): ImportRow => {
    const line = i + 2;
    const row: ImportRow = { line, name: null, phone: null, email: null, properties: [], errors: [], action: 'skip', customerId: null };
    columns.forEach((col, c) => {
      const value = (cells[c] ?? '').trim();
      if (!col.field || !value) return;
      if (col.field === 'name') {
        if (value.length > 255) row.errors.push('O nome deve ter no máximo 255 caracteres.');
        else row.name = value;
      } else if (col.field === 'phone') {
        const digits = normalizeCampaignPhone(value);
        if (digits) row.phone = `+${digits}`;
        else row.errors.push(`Telefone inválido: ${value.slice(0, 40)}`);
      } else if (col.field === 'email') {
        if (value.length <= 254 && isEmail(value)) row.email = value.toLowerCase();
        else row.errors.push(`E-mail inválido: ${value.slice(0, 60)}`);
      } else if (value.length > 500) {
        row.errors.push(`O valor de ${col.header.slice(0, 60)} deve ter no máximo 500 caracteres.`);
      } else {
        row.properties.push({ label: col.header.slice(0, 120), code: col.field, value });
      }
    });
    if (cells.length > columns.length && cells.slice(columns.length).some((v) => v.trim())) row.errors.push('A linha tem mais colunas que o cabeçalho.');
    if (!row.phone && !row.email && !row.errors.length) row.errors.push('Informe o telefone ou o e-mail.');
    for (const key of [row.phone && `p:${row.phone}`, row.email && `e:${row.email}`]) {
      if (!key || row.errors.length) continue;
      const first = firstLineOf.get(key);
      if (first !== undefined) row.errors.push(`Contato repetido: o mesmo ${key.startsWith('p:') ? 'telefone' : 'e-mail'} está na linha ${first}.`);
    }
    if (!row.errors.length) {
      if (row.phone) firstLineOf.set(`p:${row.phone}`, line);
      if (row.email) firstLineOf.set(`e:${row.email}`, line);
    }
    return row;
  });
  return { columns, rows };
}

/** The workspace's contacts a row names by phone (with or without '+') or e-mail. */
async function matchExisting(db: Db, workspaceId: number, rows: ImportRow[]): Promise<void> {
  const phones = [...new Set(rows.flatMap((r) => (r.phone && !r.errors.length ? [r.phone, r.phone.slice(1)] : [])))];
  const emails = [...new Set(rows.flatMap((r) => (r.email && !r.errors.length ? [r.email] : [])))];
  const byPhone = new Map<string, number>();
  const byEmail = new Map<string, number>();
  const chunk = 500;
  for (let i = 0; i < phones.length; i += chunk) {
    const found: { id: string; phone: string }[] = await db('customers').where('workspace_id', workspaceId).whereIn('phone', phones.slice(i, i + chunk)).orderBy('id').select('id', 'phone');
    for (const f of found) {
      const key = f.phone.startsWith('+') ? f.phone : `+${f.phone}`;
      if (!byPhone.has(key)) byPhone.set(key, Number(f.id));
    }
  }
  for (let i = 0; i < emails.length; i += chunk) {
    const found: { id: string; email: string }[] = await db('customers')
      .where('workspace_id', workspaceId)
      .whereRaw('lower(email) = ANY(?)', [emails.slice(i, i + chunk)])
      .orderBy('id')
      .select('id', db.raw('lower(email) AS email'));
    for (const f of found) if (!byEmail.has(f.email)) byEmail.set(f.email, Number(f.id));
  }
  for (const row of rows) {
    if (row.errors.length) continue;
    const a = row.phone ? byPhone.get(row.phone) : undefined;
    const b = row.email ? byEmail.get(row.email) : undefined;
    if (a !== undefined && b !== undefined && a !== b) {
      row.errors.push('O telefone e o e-mail pertencem a contatos diferentes: mescle-os antes de importar.');
      continue;
    }
    row.customerId = a ?? b ?? null;
    row.action = row.customerId === null ? 'create' : 'update';
  }
}

function summaryOf(rows: ImportRow[]) {
  const count = (a: ImportRow['action']) => rows.filter((r) => r.action === a).length;
  return { create: count('create'), update: count('update'), skip: count('skip') };
}

const ensureMay = (actor: Actor) => {
  if (!can(actor, 'customers.import')) throw errors.forbidden('Importar contatos é permitido a partir do nível MASTER.');
};

/** POST /customer/import/preview: what committing the file would do, row by row, writing nothing. */
export async function previewContactsImport(db: Db, actor: Actor, viewer: ConversationViewer, content: string): Promise<ImportPreview> {
  ensureMay(actor);
  const { columns, rows } = await readRows(content);
  await matchExisting(db, viewer.workspaceId, rows);
  return { columns, rows, summary: summaryOf(rows) };
}

/**
 * POST /customer/import: the preview's rows without errors, in one transaction. One import at a time per
 * workspace (an advisory lock), so two imports of the same file cannot both create a contact. An update
 * writes the file's non-empty fields and upserts its properties; rows with errors are skipped.
 */
export async function commitContactsImport(db: Knex, actor: Actor, viewer: ConversationViewer, content: string) {
  ensureMay(actor);
  const { rows } = await readRows(content);
  const ws = viewer.workspaceId;
  return db.transaction(async (trx) => {
    await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [`contacts-import:${ws}`]);
    await matchExisting(trx, ws, rows);
    const now = new Date();
    for (const row of rows) {
      if (row.action === 'skip') continue;
      const fields = Object.fromEntries(Object.entries({ name: row.name, phone: row.phone, email: row.email }).filter(([, v]) => v !== null));
      let id = row.customerId;
      if (id === null) {
        const [created] = (await trx('customers').insert({ ...fields, workspaceId: ws, origin: 'agent' }, ['id'])) as { id: string }[];
        id = Number(created!.id);
      } else {
        await trx('customers').where({ workspaceId: ws, id }).update({ ...fields, updatedAt: now });
      }
      if (row.properties.length) {
        await trx('customer_properties')
          .insert(row.properties.map((p) => ({ ...p, workspaceId: ws, customerId: id })))
          .onConflict(['customer_id', 'code'])
          .merge({ value: trx.raw('excluded.value'), label: trx.raw('excluded.label'), updatedAt: now });
      }
    }
    return summaryOf(rows);
  });
}
