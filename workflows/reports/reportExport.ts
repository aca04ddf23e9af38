import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import type { ReportExportInput } from '../../api/reports/exportMail';

const { mailReportExport, mailReportExportFailure, planScheduledExport } = proxyActivities<Activities>({
  startToCloseTimeout: '10 minutes',
  // Retries are for infrastructure (database or SMTP away); after the last one the member is told.
  retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumAttempts: 4 },
});

async function exportOne(input: ReportExportInput): Promise<boolean> {
  try {
    return await mailReportExport(input);
  } catch {
    await mailReportExportFailure(input).catch(() => undefined);
    return false;
  }
}

/**
 * One e-mail export (`report-export:{workspaceId}:{uuid}`, docs/reports.md "Exports"): the .xlsx and .csv of
 * the report mailed to the member who asked; on failure the SPEC §8 error text by mail.
 */
export async function reportExport(input: ReportExportInput): Promise<boolean> {
  return exportOne(input);
}

/** What a Temporal Schedule (`report-schedule:{id}`) starts: the schedule's report to each of its members. */
export async function scheduledReportExport(input: { scheduleId: number }): Promise<number> {
  const exports = await planScheduledExport(input);
  let sent = 0;
  for (const one of exports) if (await exportOne(one)) sent++;
  return sent;
}
