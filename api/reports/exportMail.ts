import type { Knex } from 'knex';
import type { Mailer } from '../mail/mailer';
import type { AccessLevelValue } from '../policy/levels';
import { loadViewer } from '../policy/conversations';
import { resolveScope } from './filters';
import { ReportQuerySchema } from './schema';
import { exportTable, type ExportKind } from './exportTable';
import { exportFilesOf } from './exportFiles';

/** One export to one member (workflows/reports/reportExport.ts): the report they may see, mailed to them. */
export interface ReportExportInput {
  workspaceId: number;
  /** The member the report is for: the figures are those they may see, the mail goes to their e-mail. */
  operatorId: number;
  kind: ExportKind;
  /** The report's query as sent (from, to, frequency, channels, …), resolved again when the export runs. */
  query: Record<string, string>;
}

/** SPEC §8: the export's error text (the toast when the request fails, the mail when the export does). */
export const EXPORT_ERROR_TEXT = 'Ocorreu um erro ao enviar o e-mail, por favor tente novamente mais tarde';

/** SPEC §8 toast of an accepted export. */
export const exportAcceptedText = (email: string) => `Relatório será enviado em breve para ${email}`;

interface Member {
  email: string;
  name: string;
  accessLevel: AccessLevelValue;
}

/** The active member with their e-mail, or undefined (left the workspace: nothing is sent). */
export async function exportMember(db: Knex, workspaceId: number, operatorId: number): Promise<Member | undefined> {
  return db('workspace_members as m')
    .join('operators as o', 'o.id', 'm.operator_id')
    .where({ 'm.workspace_id': workspaceId, 'm.operator_id': operatorId, 'm.is_active': true })
    .first('o.email', 'o.name', 'm.access_level');
}

const stamp = (day: string) => day.replace(/-/g, '');

/**
 * Builds the .xlsx and the .csv of the report with the member's visibility (resolveScope as the page does:
 * below level 6, their own calls only) and mails both to them. Returns false when the member is gone.
 */
export async function mailReportExport(db: Knex, mailer: Mailer, input: ReportExportInput): Promise<boolean> {
  const member = await exportMember(db, input.workspaceId, input.operatorId);
  if (!member) return false;
  const actor = { workspaceId: input.workspaceId, operatorId: input.operatorId, accessLevel: member.accessLevel, kind: 'operator' as const };
  const q = ReportQuerySchema.parse(input.query);
  const [scope, viewer] = await Promise.all([resolveScope(db, actor, q), loadViewer(db, actor)]);
  const table = await exportTable(db, input.kind, scope, viewer, input.kind === 'customers' && (q.from !== undefined || q.to !== undefined));
  const { xlsx, csv } = await exportFilesOf(table);
  const name = `${input.kind}-${stamp(scope.from)}-${stamp(scope.to)}`;
  await mailer.send({
    to: member.email,
    subject: `${table.title} (${table.about[0] ?? ''})`.replace(' ()', ''),
    text: [`Olá, ${member.name}.`, '', `Segue em anexo o ${table.title} em .xlsx e .csv.`, ...table.about, '', 'Balcão'].join('\n'),
    attachments: [
      { filename: `${name}.xlsx`, content: xlsx, contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
      { filename: `${name}.csv`, content: csv, contentType: 'text/csv; charset=utf-8' },
    ],
  });
  return true;
}

/** The mail of an export that failed after its retries (SPEC §8 text). */
export async function mailReportExportFailure(db: Knex, mailer: Mailer, input: ReportExportInput): Promise<void> {
  const member = await exportMember(db, input.workspaceId, input.operatorId);
  if (!member) return;
  await mailer.send({ to: member.email, subject: 'Relatório não enviado', text: EXPORT_ERROR_TEXT });
}
