import { campaignsApi } from './campaignsApi';

/**
 * Downloads the campaign's .xlsx report (SPEC §7): a short-lived signed link (POST /report/campaign/{id}/link)
 * followed by the browser itself, so the file is streamed to disk and not held in the page's memory.
 */
export async function downloadCampaignReport(id: number): Promise<void> {
  const { url } = await campaignsApi.reportLink(id);
  const a = document.createElement('a');
  a.href = url;
  a.download = '';
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
}
