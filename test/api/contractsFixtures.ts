import { createHash } from 'node:crypto';
import { expect } from 'chai';
import type { Knex } from 'knex';
import type { TestApi } from '../helpers/api';

/** What the contract tests import: files as a browser's form sends them, and rows to wait on. */

export interface ContractFilePart {
  name: string;
  bytes: Buffer | string;
  type?: string;
  /** The form field (default `files`). */
  field?: string;
}

export const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

export const jsonContract = (fields: Record<string, unknown>): ContractFilePart => ({
  name: `${String(fields.numeroContrato ?? 'contrato')}.json`,
  bytes: JSON.stringify(fields),
  type: 'application/json',
});

/** The CSV layout of type consignado (docs/contracts.md): a header and one contract line. */
export const csvContract = (line: string, header = 'nome;cpf;numero_contrato;valor;parcelas;taxa_mensal;data_contrato'): ContractFilePart => ({
  name: 'contrato.csv',
  bytes: `${header}\n${line}\n`,
  type: 'text/csv',
});

/** A small whole PDF (header to %%EOF). */
export const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n', 'latin1');
/** A PDF cut before its end. */
export const TRUNCATED_PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog', 'latin1');

/** POST /api/contract/import: `files` parts and the `code` field (left out when undefined). */
export async function importContracts(api: TestApi, token: string, code: string | undefined, parts: ContractFilePart[]) {
  const form = new FormData();
  if (code !== undefined) form.append('code', code);
  for (const p of parts) form.append(p.field ?? 'files', new Blob([p.bytes], { type: p.type ?? 'application/octet-stream' }), p.name);
  const res = await fetch(`${api.url}/api/contract/import`, { method: 'POST', body: form, headers: { Authorization: `Bearer ${token}` } });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}

/** Polls until none of the contracts is `created` any more (the import workflow processed them). */
export async function untilProcessed(knex: Knex, ids: number[], ms = 30_000): Promise<Record<number, { status: string; error: string | null }>> {
  const deadline = Date.now() + ms;
  for (;;) {
    const rows: { id: number; status: string; error: string | null }[] = await knex('contracts').whereIn('id', ids).select('id', 'status', 'error');
    if (rows.length === ids.length && rows.every((r) => r.status !== 'created')) return Object.fromEntries(rows.map((r) => [r.id, r]));
    if (Date.now() > deadline) throw new Error(`contracts still processing: ${JSON.stringify(rows)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Imports and waits for the workflow; answers the processed rows' ids in import order. */
export async function importProcessed(api: TestApi, token: string, code: string, parts: ContractFilePart[]): Promise<number[]> {
  const res = await importContracts(api, token, code, parts);
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  const ids = (res.body.data as { id: number }[]).map((c) => c.id);
  await untilProcessed(api.deps.knex, ids);
  return ids;
}
