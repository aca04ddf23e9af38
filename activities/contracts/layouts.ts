import { parseString } from '@fast-csv/parse';
import { validCpf } from '../../api/billing/document';
import type { ContractFormat } from '../../api/contracts/catalog';

/**
 * How an imported file becomes a contract (docs/contracts.md "Types and layouts"): a JSON object with the
 * contract's data, the CSV layout (a header and one contract line), or a PDF kept as a file. Pure: bytes
 * in, the contract's fields or the pt-BR reasons it cannot be read out.
 */

export interface ParsedContract {
  name: string;
  cpf: string | null;
  loanNumber: string | null;
  json: Record<string, unknown> | null;
}

export type ParseResult = { ok: true; contract: ParsedContract } | { ok: false; problems: string[] };

export const LAYOUT_MESSAGES = {
  jsonInvalid: 'O arquivo não é um JSON válido.',
  jsonNotObject: 'O JSON deve ser um objeto com os dados do contrato.',
  name: 'Informe o nome do cliente (campo nome).',
  nameTooLong: 'O nome do cliente deve ter no máximo 255 caracteres.',
  cpf: 'Informe o CPF do cliente (campo cpf).',
  cpfInvalid: 'CPF inválido: confira os dígitos.',
  loanNumber: 'Informe o número do contrato (campo numeroContrato).',
  loanNumberInvalid: 'O número do contrato deve ter no máximo 60 caracteres, sem quebras de linha.',
  csvUnreadable: 'Não foi possível ler o CSV: separe as colunas por ponto e vírgula ou vírgula.',
  csvColumns: (missing: string[]) => `Faltam colunas no cabeçalho do CSV: ${missing.join(', ')}.`,
  csvRows: (n: number) => `O CSV deve ter exatamente uma linha de contrato depois do cabeçalho (encontradas ${n}).`,
  csvDuplicate: (header: string) => `A coluna ${header} aparece mais de uma vez no cabeçalho.`,
  amount: 'Valor inválido: use o formato 15000,00.',
  installments: 'Parcelas inválidas: informe um número inteiro de 1 a 480.',
  rate: 'Taxa mensal inválida: use um percentual como 1,79.',
  date: 'Data do contrato inválida: use DD/MM/AAAA.',
  pdf: 'O PDF está corrompido ou incompleto.',
} as const;

const clean = (v: unknown) => (typeof v === 'string' ? v.trim() : typeof v === 'number' && Number.isFinite(v) ? String(v) : '');

/** The three fields every contract with data carries, checked together so every problem is reported at once. */
function coreFields(values: { name: unknown; cpf: unknown; loanNumber: unknown }): { problems: string[]; name: string; cpf: string; loanNumber: string } {
  const problems: string[] = [];
  const name = clean(values.name);
  if (!name) problems.push(LAYOUT_MESSAGES.name);
  else if (name.length > 255) problems.push(LAYOUT_MESSAGES.nameTooLong);
  const cpf = clean(values.cpf).replace(/[.\-\s]/g, '');
  if (!cpf) problems.push(LAYOUT_MESSAGES.cpf);
  else if (!validCpf(cpf)) problems.push(LAYOUT_MESSAGES.cpfInvalid);
  const loanNumber = clean(values.loanNumber);
  if (!loanNumber) problems.push(LAYOUT_MESSAGES.loanNumber);
  else if (loanNumber.length > 60 || /[\r\n\t]/.test(loanNumber) || loanNumber.includes(String.fromCharCode(0))) problems.push(LAYOUT_MESSAGES.loanNumberInvalid);
  return { problems, name, cpf, loanNumber };
}

const pick = (o: Record<string, unknown>, ...keys: string[]) => keys.map((k) => o[k]).find((v) => v !== undefined && v !== null && v !== '');

/** JSON layout (every type): an object with nome, cpf and numeroContrato (English names accepted); the whole object is kept. */
export function parseJsonContract(bytes: Buffer): ParseResult {
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8').replace(/^\uFEFF/, ''));
  } catch {
    return { ok: false, problems: [LAYOUT_MESSAGES.jsonInvalid] };
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return { ok: false, problems: [LAYOUT_MESSAGES.jsonNotObject] };
  // PostgreSQL's jsonb cannot hold a NUL character.
  if (JSON.stringify(value).includes('\\u0000')) return { ok: false, problems: [LAYOUT_MESSAGES.jsonInvalid] };
  const o = value as Record<string, unknown>;
  const core = coreFields({ name: pick(o, 'nome', 'name'), cpf: pick(o, 'cpf'), loanNumber: pick(o, 'numeroContrato', 'numero_contrato', 'loanNumber') });
  if (core.problems.length) return { ok: false, problems: core.problems };
  return { ok: true, contract: { name: core.name, cpf: core.cpf, loanNumber: core.loanNumber, json: o } };
}

/** A header as a key: lower case, no accents, spaces and hyphens as underscores ('Número do contrato' → numero_do_contrato). */
const headerKey = (h: string) =>
  h
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');

/** The CSV layout's columns: header keys it recognises and the JSON field each becomes. */
const CSV_COLUMNS: Record<string, string> = {
  nome: 'nome',
  cpf: 'cpf',
  numero_contrato: 'numeroContrato',
  numero_do_contrato: 'numeroContrato',
  contrato: 'numeroContrato',
  valor: 'valor',
  parcelas: 'parcelas',
  taxa_mensal: 'taxaMensal',
  data_contrato: 'dataContrato',
  data_do_contrato: 'dataContrato',
};
const CSV_REQUIRED = [
  ['nome', 'nome'],
  ['cpf', 'cpf'],
  ['numeroContrato', 'numero_contrato'],
] as const;

function sniffDelimiter(text: string): string {
  const header = text.split(/\r?\n/, 1)[0] ?? '';
  return (header.match(/;/g)?.length ?? 0) >= (header.match(/,/g)?.length ?? 0) && header.includes(';') ? ';' : ',';
}

/** The header and the first contract line (all a contract needs), and how many lines the file has in all. */
async function csvTable(text: string): Promise<{ rows: string[][]; count: number }> {
  const rows: string[][] = [];
  let count = 0;
  await new Promise<void>((resolve, reject) => {
    parseString(text, { delimiter: sniffDelimiter(text), ignoreEmpty: true, trim: true })
      .on('error', reject)
      .on('data', (row: string[]) => {
        if (count++ < 2) rows.push(row);
      })
      .on('end', () => resolve());
  });
  return { rows, count };
}

/** '15.000,00', '15000,00' or '15000.00' as a number. */
function brDecimal(raw: string): number | undefined {
  const s = raw.replace(/^R\$\s*/i, '').trim();
  let normalized: string;
  if (/^\d{1,3}(\.\d{3})+(,\d{1,4})?$/.test(s)) normalized = s.replace(/\./g, '').replace(',', '.');
  else if (/^\d+(,\d{1,4})?$/.test(s)) normalized = s.replace(',', '.');
  else if (/^\d+(\.\d{1,4})?$/.test(s)) normalized = s;
  else return undefined;
  const n = Number(normalized);
  return Number.isFinite(n) ? n : undefined;
}

function isoDay(raw: string): string | undefined {
  const br = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(raw);
  const iso = br ? `${br[3]}-${br[2]}-${br[1]}` : /^\d{4}-\d{2}-\d{2}$/.test(raw) ? raw : undefined;
  if (!iso) return undefined;
  const d = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === iso ? iso : undefined;
}

/** The typed optional columns: each a value for the JSON or its problem. */
const TYPED: Record<string, (raw: string) => { value: unknown } | { problem: string }> = {
  valor: (raw) => {
    const n = brDecimal(raw);
    return n !== undefined && n > 0 ? { value: n } : { problem: LAYOUT_MESSAGES.amount };
  },
  parcelas: (raw) => (/^\d{1,3}$/.test(raw) && Number(raw) >= 1 && Number(raw) <= 480 ? { value: Number(raw) } : { problem: LAYOUT_MESSAGES.installments }),
  taxaMensal: (raw) => {
    const n = brDecimal(raw.replace(/%$/, '').trim());
    return n !== undefined && n <= 100 ? { value: n } : { problem: LAYOUT_MESSAGES.rate };
  },
  dataContrato: (raw) => {
    const iso = isoDay(raw);
    return iso ? { value: iso } : { problem: LAYOUT_MESSAGES.date };
  },
};

/**
 * CSV layout (type consignado): a header line and exactly one contract line, columns separated by ';' or
 * ','. Required columns nome, cpf and numero_contrato; optional valor, parcelas, taxa_mensal, data_contrato
 * are typed; any other column is kept as text under its header.
 */
export async function parseCsvContract(bytes: Buffer): Promise<ParseResult> {
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  let table: { rows: string[][]; count: number };
  try {
    table = await csvTable(text);
  } catch {
    return { ok: false, problems: [LAYOUT_MESSAGES.csvUnreadable] };
  }
  const [header, ...body] = table.rows;
  const lines = Math.max(0, table.count - 1);
  if (!header) return { ok: false, problems: [LAYOUT_MESSAGES.csvRows(0)] };
  const fields = header.map((h) => CSV_COLUMNS[headerKey(h)] ?? h.trim());
  const problems: string[] = [];
  const seen = new Set<string>();
  fields.forEach((f, i) => {
    if (!f) return;
    if (seen.has(f)) problems.push(LAYOUT_MESSAGES.csvDuplicate(header[i]!.trim()));
    seen.add(f);
  });
  const missing = CSV_REQUIRED.filter(([field]) => !fields.includes(field)).map(([, column]) => column);
  if (missing.length) problems.push(LAYOUT_MESSAGES.csvColumns(missing));
  if (lines !== 1) problems.push(LAYOUT_MESSAGES.csvRows(lines));
  if (problems.length) return { ok: false, problems };
  const row = body[0]!;
  const json: Record<string, unknown> = {};
  fields.forEach((field, i) => {
    const raw = (row[i] ?? '').trim();
    if (field === 'cpf') json.cpf = raw.replace(/[.\-\s]/g, '');
    else if (TYPED[field]) {
      if (!raw) return;
      const typed = TYPED[field](raw);
      if ('problem' in typed) problems.push(typed.problem);
      else json[field] = typed.value;
    } else if (field) json[field] = raw;
  });
  const core = coreFields({ name: json.nome, cpf: json.cpf, loanNumber: json.numeroContrato });
  problems.unshift(...core.problems);
  if (problems.length) return { ok: false, problems };
  if (JSON.stringify(json).includes('\\u0000')) return { ok: false, problems: [LAYOUT_MESSAGES.csvUnreadable] };
  return { ok: true, contract: { name: core.name, cpf: core.cpf, loanNumber: core.loanNumber, json } };
}

/** A PDF is kept as a file: only checked to be whole (its header and the end-of-file marker). Named after the file. */
export function parsePdfContract(bytes: Buffer, fileName: string): ParseResult {
  const tail = bytes.subarray(Math.max(0, bytes.length - 2048)).toString('latin1');
  if (bytes.subarray(0, 5).toString('latin1') !== '%PDF-' || !/%%EOF\s*$/.test(tail)) return { ok: false, problems: [LAYOUT_MESSAGES.pdf] };
  const name = fileName.replace(/\.pdf$/i, '').trim() || fileName;
  return { ok: true, contract: { name: name.slice(0, 255), cpf: null, loanNumber: null, json: null } };
}

export function parseContractFile(format: ContractFormat, bytes: Buffer, fileName: string): Promise<ParseResult> | ParseResult {
  if (format === 'json') return parseJsonContract(bytes);
  if (format === 'csv') return parseCsvContract(bytes);
  return parsePdfContract(bytes, fileName);
}
