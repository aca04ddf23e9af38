import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import type { Knex } from 'knex';
import type { CampaignNumberStatus } from '../models/CampaignNumber';
import { NUMBER_STATUS_LABELS } from './statusLabels';

export const REPORT_HEADER = ['Número (como enviado)', 'Número normalizado', 'Estado', 'Enviado em', 'Entregue em', 'Lido em', 'Erro'];

/**
 * A .csv cell as text a spreadsheet shows and never runs (OWASP "CSV Injection"): Excel, LibreOffice and
 * Google Sheets evaluate a CSV value starting with `=`, `+`, `-`, `@`, tab or CR, so such a value gets a
 * leading apostrophe. A sign followed by digits only (`+5511912345678`, a phone as the report stores it) is
 * read as a number, not a formula: nothing in it can name a function, a cell, a link or another program,
 * so it is left as it is. A phone written with spaces or hyphens (`+55 11 91234-5678`) would be evaluated
 * (Excel's space is an operator), so it is prefixed. The .xlsx report needs none of this: its cells are
 * string cells, which no spreadsheet evaluates.
 */
export function neutralizeCsvCell(value: string): string {
  if (SIGNED_DIGITS.test(value)) return value;
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

const SIGNED_DIGITS = /^[+-]\d+$/;

/** One CSV field (RFC 4180): quoted when it holds the separator, a quote or a line break. */
function csvField(value: string): string {
  const cell = neutralizeCsvCell(value);
  return /[";\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
}

const when = (d: Date | string | null) => (d ? new Date(d).toISOString() : '');

type ReportRow = { id: number; raw: string | null; phone: string; normalized: string | null; status: string; sentAt: Date | null; deliveredAt: Date | null; readAt: Date | null; error: string | null };

/** The report's rows in the file's order, read in pages by id (bounded memory for 100k numbers), as cell texts. */
async function* reportRows(knex: Knex, campaignId: number): AsyncGenerator<string[]> {
  let after = 0;
  for (;;) {
    const rows: ReportRow[] = await knex('campaign_numbers')
      .where({ campaignId })
      .where('id', '>', after)
      .orderBy('id')
      .limit(5000)
      .select('id', 'raw', 'phone', 'normalized', 'status', 'sent_at', 'delivered_at', 'read_at', 'error');
    if (!rows.length) return;
    for (const r of rows) {
      yield [r.raw ?? r.phone, r.normalized ?? '', NUMBER_STATUS_LABELS[r.status as CampaignNumberStatus] ?? r.status, when(r.sentAt), when(r.deliveredAt), when(r.readAt), r.error ?? ''];
    }
    after = rows[rows.length - 1].id;
  }
}

/**
 * The campaign report as an .xlsx stream, written with exceljs' streaming writer. Every cell is a string
 * cell, written as it is: an .xlsx string cell is text, never a formula, so `+55 11 …` or `=HYPERLINK(…)`
 * show exactly as stored (no apostrophe to neutralise anything).
 */
export function campaignReportStream(knex: Knex, campaignId: number, logger: { error(o: object, m: string): void }): PassThrough {
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
  const sheet = workbook.addWorksheet('Campanha');
  void (async () => {
    sheet.addRow(REPORT_HEADER).commit();
    for await (const values of reportRows(knex, campaignId)) sheet.addRow(values).commit();
    sheet.commit();
    await workbook.commit();
  })().catch((err: unknown) => {
    logger.error({ err, campaignId }, 'campaign report failed');
    out.destroy(err as Error);
  });
  return out;
}

/**
 * The same report as .csv for Brazilian Excel: UTF-8 with a BOM, `;` between fields, CRLF between rows,
 * each cell neutralised (neutralizeCsvCell) and quoted when needed.
 */
export function campaignReportCsvStream(knex: Knex, campaignId: number, logger: { error(o: object, m: string): void }): PassThrough {
  const out = new PassThrough();
  const line = (values: string[]) => `${values.map(csvField).join(';')}\r\n`;
  void (async () => {
    out.write(`\uFEFF${line(REPORT_HEADER)}`);
    for await (const values of reportRows(knex, campaignId)) {
      // Honour backpressure: a 100k-row report is not held in memory.
      if (!out.write(line(values))) await new Promise((r) => out.once('drain', r));
    }
    out.end();
  })().catch((err: unknown) => {
    logger.error({ err, campaignId }, 'campaign report failed');
    out.destroy(err as Error);
  });
  return out;
}
