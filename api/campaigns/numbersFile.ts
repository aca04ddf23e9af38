import { Readable } from 'node:stream';
import { createInflateRaw } from 'node:zlib';
import { parse as parseCsv } from '@fast-csv/parse';
import ExcelJS from 'exceljs';
import { SaxesParser } from 'saxes';
import { isCompoundFile, XlsUnreadable, xlsRows as readXlsWorkbook } from './xlsReader';
import type { NumbersFileKind } from './numbersFileKind';

// The numbers file is read by the worker (processCampaignFile) and by the api (the upload's column headers).
export { numbersFileKind, type NumbersFileKind } from './numbersFileKind';

/**
 * Streaming readers of a campaign's numbers file (docs/campaigns.md): each yields the file's rows as arrays
 * of cell texts, one at a time, so memory stays bounded whatever the size. Limits are checked while reading
 * and end the read with a `NumbersFileRefused` carrying the pt-BR reason shown on the campaign.
 */
export interface NumbersFileLimits {
  /** Bytes read from storage (csv, txt, xml) or the zip's size (xlsx). */
  maxBytes: number;
  /** What an xlsx may unpack to, by its zip directory. */
  maxUnpackedBytes: number;
  /** Rows of the file, header included. */
  maxRows: number;
}

export const DEFAULT_NUMBERS_FILE_LIMITS: NumbersFileLimits = { maxBytes: 20 * 1024 * 1024, maxUnpackedBytes: 100 * 1024 * 1024, maxRows: 200_000 };

/** Columns kept per row (number + 19 placeholders) and characters kept per cell. */
export const MAX_COLUMNS = 20;
export const MAX_CELL = 255;

export class NumbersFileRefused extends Error {}

const mb = (n: number) => `${Math.round(n / (1024 * 1024))} MB`;
export const refusals = {
  tooLarge: (max: number) => new NumbersFileRefused(`O arquivo é grande demais: o limite é ${mb(max)}.`),
  tooManyRows: (max: number) => new NumbersFileRefused(`O arquivo tem linhas demais: o limite é ${max.toLocaleString('pt-BR')} linhas.`),
  unpacksTooLarge: (max: number) => new NumbersFileRefused(`A planilha descompactada passa de ${mb(max)}: envie um arquivo menor ou em .csv.`),
  notXls: (why?: string) => new NumbersFileRefused(why ? `O arquivo não é uma planilha .xls válida: ${why}.` : 'O arquivo não é uma planilha .xls válida.'),
  notXlsx: () => new NumbersFileRefused('O arquivo não é uma planilha .xlsx válida.'),
  badXml: (detail: string) => new NumbersFileRefused(`O arquivo XML é inválido: ${detail}`),
  xmlDoctype: () => new NumbersFileRefused('O arquivo XML não pode ter DOCTYPE nem entidades.'),
  unknownKind: () => new NumbersFileRefused('Formato de arquivo não suportado: use .csv, .xls, .xlsx, .txt ou .xml.'),
};

const cell = (v: unknown): string => {
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') {
    const o = v as { text?: unknown; result?: unknown; richText?: { text: string }[]; hyperlink?: unknown };
    if (Array.isArray(o.richText)) return o.richText.map((r) => r.text).join('').slice(0, MAX_CELL);
    if (o.text !== undefined) return cell(o.text);
    if (o.result !== undefined) return cell(o.result);
    if (v instanceof Date) return v.toISOString();
    return '';
  }
  // Excel keeps long phone numbers as numbers: 5511912345678 must not come back as 5.5e12.
  if (typeof v === 'number') return Number.isInteger(v) ? BigInt(v).toString() : String(v);
  return String(v).slice(0, MAX_CELL);
};

const tidy = (cells: unknown[]): string[] => cells.slice(0, MAX_COLUMNS).map((c) => cell(c).trim());

/** Counts bytes as they pass and stops the read past the limit. */
async function* capped(source: AsyncIterable<Buffer | string>, maxBytes: number): AsyncGenerator<Buffer> {
  let total = 0;
  for await (const chunk of source) {
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    total += b.length;
    if (total > maxBytes) throw refusals.tooLarge(maxBytes);
    yield b;
  }
}

/** ';' (Brazilian Excel), tab or ',' — whichever the first line has most of. */
function sniffDelimiter(head: string): string {
  const line = head.split(/\r?\n/, 1)[0] ?? '';
  const count = (c: string) => line.split(c).length - 1;
  const best = [';', '\t', ','].map((d) => [d, count(d)] as const).sort((a, b) => b[1] - a[1])[0];
  return best[1] > 0 ? best[0] : ',';
}

async function* delimitedRows(source: AsyncIterable<Buffer>, limits: NumbersFileLimits): AsyncGenerator<string[]> {
  const input = capped(source, limits.maxBytes);
  const first = await input.next();
  if (first.done) return;
  let head = first.value;
  // A UTF-8 BOM (Excel's "CSV UTF-8") is not part of the first number.
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) head = head.subarray(3);
  const delimiter = sniffDelimiter(head.subarray(0, 4096).toString('utf8'));
  const stream = Readable.from(
    (async function* () {
      yield head;
      yield* input;
    })(),
  );
  const parser = parseCsv({ delimiter, ignoreEmpty: true, trim: true, maxRows: limits.maxRows + 1 });
  stream.on('error', (err) => parser.destroy(err));
  stream.pipe(parser);
  let rows = 0;
  for await (const row of parser as AsyncIterable<string[]>) {
    if (++rows > limits.maxRows) {
      stream.destroy();
      throw refusals.tooManyRows(limits.maxRows);
    }
    yield tidy(row);
  }
}

interface ZipEntry {
  method: number;
  compressedSize: number;
  uncompressedSize: number;
  localHeader: number;
}

/**
 * The entries an xlsx's zip directory declares, read from its end (EOCD, then each central directory entry).
 * Zip64 or an unreadable directory is refused: a sheet of phone numbers needs neither.
 */
function zipEntries(zip: Buffer): ZipEntry[] {
  if (zip.length < 22 || zip.readUInt32LE(0) !== 0x04034b50) throw refusals.notXlsx();
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 65_535); i--) {
    if (zip.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw refusals.notXlsx();
  const count = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  if (count === 0xffff || at === 0xffffffff) throw refusals.notXlsx();
  const entries: ZipEntry[] = [];
  for (let n = 0; n < count; n++) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== 0x02014b50) throw refusals.notXlsx();
    const entry = { method: zip.readUInt16LE(at + 10), compressedSize: zip.readUInt32LE(at + 20), uncompressedSize: zip.readUInt32LE(at + 24), localHeader: zip.readUInt32LE(at + 42) };
    if (entry.uncompressedSize === 0xffffffff || entry.compressedSize === 0xffffffff) throw refusals.notXlsx();
    entries.push(entry);
    at += 46 + zip.readUInt16LE(at + 28) + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return entries;
}

/** Sum of the uncompressed sizes an xlsx's zip directory declares (what a zip bomb is refused by, before unpacking). */
export function zipUnpackedSize(zip: Buffer): number {
  return zipEntries(zip).reduce((sum, e) => sum + e.uncompressedSize, 0);
}

/**
 * Unpacks every entry once, keeping nothing, before exceljs reads the file: a damaged entry is refused here
 * (exceljs' reader never settles on broken deflate data, which held the activity until its timeout, again
 * on every retry), and so is a directory that lies about sizes (the bytes really unpacked are counted).
 */
async function checkZipEntries(zip: Buffer, entries: ZipEntry[], maxUnpacked: number): Promise<void> {
  let unpacked = 0;
  for (const e of entries) {
    const h = e.localHeader;
    if (h + 30 > zip.length || zip.readUInt32LE(h) !== 0x04034b50) throw refusals.notXlsx();
    const from = h + 30 + zip.readUInt16LE(h + 26) + zip.readUInt16LE(h + 28);
    if (from + e.compressedSize > zip.length) throw refusals.notXlsx();
    const data = zip.subarray(from, from + e.compressedSize);
    if (e.method === 0) {
      unpacked += data.length;
      if (unpacked > maxUnpacked) throw refusals.unpacksTooLarge(maxUnpacked);
      continue;
    }
    if (e.method !== 8) throw refusals.notXlsx();
    const inflate = createInflateRaw();
    try {
      inflate.end(data);
      for await (const chunk of inflate as AsyncIterable<Buffer>) {
        unpacked += chunk.length;
        if (unpacked > maxUnpacked) throw refusals.unpacksTooLarge(maxUnpacked);
      }
    } catch (err) {
      if (err instanceof NumbersFileRefused) throw err;
      throw refusals.notXlsx();
    } finally {
      inflate.destroy();
    }
  }
}

/** The whole file, refused past maxBytes (the zip and xls readers need it at once; uploads are 16 MB at most). */
async function wholeFile(source: AsyncIterable<Buffer>, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of capped(source, maxBytes)) chunks.push(c);
  return Buffer.concat(chunks);
}

async function* xlsxRows(source: AsyncIterable<Buffer> | Buffer, limits: NumbersFileLimits): AsyncGenerator<string[]> {
  // The zip is at most maxBytes (16 MB uploads): held whole to read its directory before unpacking anything.
  const zip = Buffer.isBuffer(source) ? source : await wholeFile(source, limits.maxBytes);
  const entries = zipEntries(zip);
  if (entries.reduce((sum, e) => sum + e.uncompressedSize, 0) > limits.maxUnpackedBytes) throw refusals.unpacksTooLarge(limits.maxUnpackedBytes);
  await checkZipEntries(zip, entries, limits.maxUnpackedBytes);
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([zip]), { worksheets: 'emit', sharedStrings: 'cache', hyperlinks: 'ignore', styles: 'ignore', entries: 'ignore' });
  let rows = 0;
  try {
    // The numbers are on the first sheet.
    for await (const sheet of reader) {
      for await (const row of sheet) {
        if (++rows > limits.maxRows) throw refusals.tooManyRows(limits.maxRows);
        const values = (row as ExcelJS.Row).values as unknown[];
        // exceljs rows are 1-based: values[0] is empty.
        yield tidy(Array.isArray(values) ? values.slice(1) : []);
      }
      break;
    }
  } catch (err) {
    if (err instanceof NumbersFileRefused) throw err;
    throw refusals.notXlsx();
  }
}

/**
 * Excel 97–2003 (xlsReader.ts): the first worksheet of a BIFF8 workbook. An .xlsx saved under the old
 * extension (a zip) is read as xlsx; anything else is refused with the reason.
 */
async function* xlsRows(source: AsyncIterable<Buffer>, limits: NumbersFileLimits): AsyncGenerator<string[]> {
  const file = await wholeFile(source, limits.maxBytes);
  if (file.length >= 4 && file.readUInt32LE(0) === 0x04034b50) {
    yield* xlsxRows(file, limits);
    return;
  }
  if (!isCompoundFile(file)) throw refusals.notXls();
  let rows: unknown[][];
  try {
    rows = readXlsWorkbook(file, { maxRows: limits.maxRows, maxColumns: MAX_COLUMNS }, () => refusals.tooManyRows(limits.maxRows));
  } catch (err) {
    if (err instanceof NumbersFileRefused) throw err;
    // Anything else a crafted file could cause is "unreadable" too, never a retried activity.
    throw refusals.notXls(err instanceof XlsUnreadable ? err.message : undefined);
  }
  for (const row of rows) yield tidy(row);
}

/**
 * XML without a fixed schema: the root's children are the rows. A row with child elements gives their texts
 * in order (`<contato><telefone>…</telefone><nome>…</nome></contato>`), a row without gives its own text
 * (`<numero>5511…</numero>`). No DOCTYPE (so no entity can expand) and no depth past 8.
 */
async function* xmlRows(source: AsyncIterable<Buffer>, limits: NumbersFileLimits): AsyncGenerator<string[]> {
  const parser = new SaxesParser({ xmlns: false, position: false });
  const ready: string[][] = [];
  let depth = 0;
  let row: string[] | null = null;
  let text = '';
  let rows = 0;
  let failure: Error | null = null;
  parser.on('doctype', () => {
    failure ??= refusals.xmlDoctype();
  });
  parser.on('error', (err) => {
    failure ??= refusals.badXml(err.message.split('\n')[0].slice(0, 200));
  });
  parser.on('opentag', () => {
    depth++;
    if (depth > 8) failure ??= refusals.badXml('aninhamento profundo demais.');
    if (depth === 2) row = [];
    text = '';
  });
  parser.on('text', (t) => {
    if (text.length < MAX_CELL * 4) text += t;
  });
  parser.on('cdata', (t) => {
    if (text.length < MAX_CELL * 4) text += t;
  });
  parser.on('closetag', () => {
    if (depth === 3 && row) row.push(text);
    if (depth === 2 && row) {
      if (!row.length) row.push(text);
      if (++rows > limits.maxRows) failure ??= refusals.tooManyRows(limits.maxRows);
      else ready.push(tidy(row));
      row = null;
    }
    text = '';
    depth--;
  });
  for await (const chunk of capped(source, limits.maxBytes)) {
    parser.write(chunk.toString('utf8'));
    if (failure) throw failure;
    while (ready.length) yield ready.shift()!;
  }
  parser.close();
  if (failure) throw failure;
  while (ready.length) yield ready.shift()!;
}

/** The rows of a numbers file of the given kind, read as a stream from `source`. */
export function readNumbersFile(kind: NumbersFileKind, source: AsyncIterable<Buffer>, limits: NumbersFileLimits = DEFAULT_NUMBERS_FILE_LIMITS): AsyncGenerator<string[]> {
  switch (kind) {
    case 'csv':
    case 'txt':
      return delimitedRows(source, limits);
    case 'xlsx':
      return xlsxRows(source, limits);
    case 'xml':
      return xmlRows(source, limits);
    case 'xls':
      return xlsRows(source, limits);
  }
}
