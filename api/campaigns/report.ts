import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import type { Knex } from 'knex';
import type { CampaignNumberStatus } from '../models/CampaignNumber';
import { CSV_BOM, csvLine } from '../reports/csv';
import { NUMBER_STATUS_LABELS } from './statusLabels';

export const REPORT_HEADER = ['Número (como enviado)', 'Número normalizado', 'Estado', 'Enviado em', 'Entregue em', 'Lido em', 'Erro'];

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
 * each cell neutralised and quoted when needed (reports/csv.ts).
 */
export function campaignReportCsvStream(knex: Knex, campaignId: number, logger: { error(o: object, m: string): void }): PassThrough {
  const out = new PassThrough();
  void (async () => {
    out.write(`${CSV_BOM}${csvLine(REPORT_HEADER)}`);
    for await (const values of reportRows(knex, campaignId)) {
      // Honour backpressure: a 100k-row report is not held in memory.
      if (!out.write(csvLine(values))) await new Promise((r) => out.once('drain', r));
    }
    out.end();
  })().catch((err: unknown) => {
    logger.error({ err, campaignId }, 'campaign report failed');
    out.destroy(err as Error);
  });
  return out;
}
