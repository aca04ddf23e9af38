/** The formats a campaign's numbers file may come in (docs/campaigns.md). */
export type NumbersFileKind = 'csv' | 'txt' | 'xlsx' | 'xls' | 'xml';

/** The kind by the uploaded name (and, for the zip formats, the first bytes are checked when reading). */
export function numbersFileKind(fileName: string): NumbersFileKind | null {
  const ext = /\.([a-z]+)$/i.exec(fileName)?.[1]?.toLowerCase();
  return ext === 'csv' || ext === 'txt' || ext === 'xlsx' || ext === 'xls' || ext === 'xml' ? ext : null;
}
