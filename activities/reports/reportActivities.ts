import { loadConfig } from '../../api/config';
import { createMailer, type Mailer } from '../../api/mail/mailer';
import { mailReportExport, mailReportExportFailure, type ReportExportInput } from '../../api/reports/exportMail';
import { scheduledExports } from '../../api/reports/schedules';
import type { ActivityDeps } from '../deps';

/**
 * The report exports' activities (workflows/reports/reportExport.ts, docs/reports.md "Exports"): build the
 * .xlsx and .csv of one report for one member and mail them; the failure mail; the exports a schedule sends.
 */
export function reportActivities(deps: ActivityDeps, mailer?: Mailer) {
  let own: Mailer | undefined;
  const mail = () => mailer ?? (own ??= createMailer(deps.config ?? loadConfig(), deps.logger));
  return {
    async mailReportExport(input: ReportExportInput): Promise<boolean> {
      return mailReportExport(deps.knex, mail(), input);
    },
    async mailReportExportFailure(input: ReportExportInput): Promise<void> {
      await mailReportExportFailure(deps.knex, mail(), input);
    },
    /** One export per recipient of the schedule, for the period that just ended; none when it was deleted. */
    async planScheduledExport(input: { scheduleId: number }): Promise<ReportExportInput[]> {
      return scheduledExports(deps.knex, input.scheduleId);
    },
  };
}
