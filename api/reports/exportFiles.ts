import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { CSV_BOM, csvLine } from './csv';
import type { ExportCell, ExportTable } from './exportTable';

async function collect(stream: PassThrough): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Both files of an export from one pass over the table's rows (the contacts report pages through the
 * database: it is read once, not once per file).
 * - .xlsx through exceljs' streaming writer (rows are committed as they come). A text is a string cell and a
 *   number a number cell: no cell is ever a formula, so `=HYPERLINK(…)` in a contact's name shows as written.
 * - .csv: UTF-8 with a BOM, `;` between fields, CRLF between rows (as the campaign report).
 */
export async function exportFilesOf(table: ExportTable): Promise<{ xlsx: Buffer; csv: Buffer }> {
  const out = new PassThrough();
  const xlsx = collect(out);
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
  // Sheet names may not hold []:*?/\ and have at most 31 characters.
  const sheet = workbook.addWorksheet(table.title.replace(/[[\]:*?/\\]/g, ' ').slice(0, 31));
  const csv = [`${CSV_BOM}${csvLine([table.title])}`];
  const add = (row: ExportCell[]) => {
    sheet.addRow(row.map((c) => (c === null ? '' : c))).commit();
    csv.push(csvLine(row));
  };
  sheet.addRow([table.title]).commit();
  for (const line of table.about) add([line]);
  add([]);
  add(table.header);
  for await (const row of table.rows()) add(row);
  sheet.commit();
  await workbook.commit();
  return { xlsx: await xlsx, csv: Buffer.from(csv.join(''), 'utf8') };
}
