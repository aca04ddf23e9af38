import { z } from 'zod';
import { normalizeCampaignPhone } from './phone';
import { DEFAULT_NUMBERS_FILE_LIMITS, NumbersFileRefused, readNumbersFile } from './numbersFile';
import { numbersFileKind } from './numbersFileKind';

/**
 * A first row whose first cell has words and is no phone number is the file's header ("telefone;nome"),
 * not an invalid number: the rule processCampaignFile applies when it reads the numbers.
 */
export function isHeaderRow(cells: readonly string[]): boolean {
  const first = cells[0] ?? '';
  return !normalizeCampaignPhone(first) && /[a-zà-ú]/i.test(first);
}

/**
 * What the campaign wizard shows of a numbers file (docs/campaigns-ui.md): the names of the columns after
 * the phone (column 2 fills {{1}}, column 3 {{2}}…; null without a header row) and the first data row's
 * values for them. Sent with the upload's answer of `POST /api/campaign/numbers-file`.
 */
export const FileColumnsSchema = z.object({ headers: z.array(z.string()).nullable(), firstRow: z.array(z.string()).nullable() });
export type FileColumns = z.infer<typeof FileColumnsSchema>;

/**
 * Reads the header and the first data row of a numbers file (null when the name is not a numbers file or
 * the file cannot be read: the campaign's processing gives the reason then). Reads no further than needed.
 */
export async function readFileColumns(fileName: string, source: AsyncIterable<Buffer>): Promise<FileColumns | null> {
  const kind = numbersFileKind(fileName);
  if (!kind) return null;
  let headers: string[] | null = null;
  let first = true;
  try {
    for await (const cells of readNumbersFile(kind, source, DEFAULT_NUMBERS_FILE_LIMITS)) {
      if (cells.every((c) => !c)) continue;
      if (first && isHeaderRow(cells)) {
        headers = cells.slice(1);
        first = false;
        continue;
      }
      return FileColumnsSchema.parse({ headers, firstRow: cells.slice(1) });
    }
    return FileColumnsSchema.parse({ headers, firstRow: null });
  } catch (err) {
    // A refused file (too large, not a spreadsheet…) is said by the campaign's processing, in its words.
    if (err instanceof NumbersFileRefused) return null;
    throw err;
  }
}
