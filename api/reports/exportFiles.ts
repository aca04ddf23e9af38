import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { neutralizeCsvCell } from '../campaigns/report';
import type { ExportCell, ExportTable } from './exportTable';

async function collect(stream: PassThrough): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/**
 * The table as .xlsx through exceljs' streaming writer (rows are committed as they come). A text is a
 * string cell and a number a number cell: no cell is ever a formula, so `=HYPERLINK(…)` in a contact's name
 * shows as written.
 */
export async function xlsxOf(table: ExportTable): Promise<Buffer> {
  const out = new PassThrough();
  const done = collect(out);
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
  // Sheet names may not hold []:*?/\ and have at most 31 characters.
  const sheet = workbook.addWorksheet(table.title.replace(/[[\]:*?/\\]/g, ' ').slice(0, 31));
  sheet.addRow([table.title]).commit();
  for (const line of table.about) sheet.addRow([line]).commit();
  sheet.addRow([]).commit();
  sheet.addRow(table.header).commit();
  for await (const row of table.rows()) sheet.addRow(row.map((c) => (c === null ? '' : c))).commit();
  sheet.commit();
  await workbook.commit();
  return done;
}

/** One CSV field (RFC 4180) for Brazilian Excel: neutralised (neutralizeCsvCell) and quoted when needed. */
function csvField(value: ExportCell): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const cell = neutralizeCsvCell(value);
  return /[";\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
}

/** The same table as .csv: UTF-8 with a BOM, `;` between fields, CRLF between rows (as the campaign report). */
export async function csvOf(table: ExportTable): Promise<Buffer> {
  const line = (values: ExportCell[]) => `${values.map(csvField).join(';')}\r\n`;
  const parts = [`\uFEFF${line([table.title])}`, ...table.about.map((l) => line([l])), '\r\n', line(table.header)];
  for await (const row of table.rows()) parts.push(line(row));
  return Buffer.from(parts.join(''), 'utf8');
}
