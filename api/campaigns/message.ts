import { workflowIds } from '../../workflows/ids';

/** The key recorded with a number's send: derived from the workflow id, the same on every attempt. */
export function campaignIdempotencyKey(campaignId: number, numberId: number): string {
  return `${campaignIdempotencyPrefix(campaignId)}${numberId}`;
}

/** What every key of the campaign starts with (the claim writes it in SQL as prefix || id). */
export function campaignIdempotencyPrefix(campaignId: number): string {
  return `${workflowIds.campaign(campaignId)}:`;
}

const PLACEHOLDER = /\{\{\s*(\d{1,2})\s*\}\}/g;

/** `{{1}}`, `{{2}}`, ... take the row's columns 2, 3, ...; a placeholder without a value becomes empty. */
export function fillPlaceholders(text: string, variables: Record<string, string>): string {
  return text.replace(PLACEHOLDER, (_, n: string) => variables[String(Number(n))] ?? '');
}

/** The highest {{n}} of a text: how many body parameters a Cloud template send carries. */
export function placeholderCount(text: string): number {
  let max = 0;
  for (const m of text.matchAll(PLACEHOLDER)) max = Math.max(max, Number(m[1]));
  return max;
}
