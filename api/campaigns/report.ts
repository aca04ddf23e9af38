import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import type { Knex } from 'knex';
import type { CampaignNumberStatus } from '../models/CampaignNumber';

export const NUMBER_STATE_LABELS: Record<CampaignNumberStatus, string> = {
  pending: 'Pendente',
  sending: 'Enviando',
  sent: 'Enviada',
  delivered: 'Entregue',
  read: 'Lida',
  failed: 'Falhou',
  invalid: 'Inválido',
  duplicate: 'Duplicado',
  opted_out: 'Descadastrado (SAIR)',
  skipped: 'Ignorado',
};

export const REPORT_HEADER = ['Número (como enviado)', 'Número normalizado', 'Estado', 'Enviado em', 'Entregue em', 'Lido em', 'Erro'];

/**
 * A text a spreadsheet would run as a formula (=, +, -, @, and the tab/CR tricks) gets a leading
 * apostrophe: it shows as text and never evaluates (OWASP CSV injection).
 */
export function neutralizeCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

const when = (d: Date | string | null) => (d ? new Date(d).toISOString() : '');

/**
 * The campaign report as an .xlsx stream: one row per number of the file in its order, read in pages by id
 * (bounded memory for 100k numbers) and written with exceljs' streaming writer. Every cell is text.
 */
export function campaignReportStream(knex: Knex, campaignId: number, logger: { error(o: object, m: string): void }): PassThrough {
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
  const sheet = workbook.addWorksheet('Campanha');
  void (async () => {
    sheet.addRow(REPORT_HEADER).commit();
    let after = 0;
    for (;;) {
      const rows = await knex('campaign_numbers')
        .where({ campaignId })
        .where('id', '>', after)
        .orderBy('id')
        .limit(5000)
        .select('id', 'raw', 'phone', 'normalized', 'status', 'sent_at', 'delivered_at', 'read_at', 'error');
      if (!rows.length) break;
      for (const r of rows) {
        const values = [r.raw ?? r.phone, r.normalized ?? '', NUMBER_STATE_LABELS[r.status as CampaignNumberStatus] ?? r.status, when(r.sentAt), when(r.deliveredAt), when(r.readAt), r.error ?? ''];
        sheet.addRow(values.map((v) => neutralizeCell(String(v)))).commit();
      }
      after = rows[rows.length - 1].id;
    }
    sheet.commit();
    await workbook.commit();
  })().catch((err: unknown) => {
    logger.error({ err, campaignId }, 'campaign report failed');
    out.destroy(err as Error);
  });
  return out;
}
