/** A cell of a .csv line: text, or a number (seconds, counts); null is an empty field. */
export type CsvCell = string | number | null;

/**
 * A .csv cell as text a spreadsheet shows and never runs (OWASP "CSV Injection"): Excel, LibreOffice and
 * Google Sheets evaluate a CSV value starting with `=`, `+`, `-`, `@`, tab or CR, so such a value gets a
 * leading apostrophe. A sign followed by digits only (`+5511912345678`, a phone as the campaign report stores
 * it) is read as a number, not a formula: nothing in it can name a function, a cell, a link or another
 * program, so it is left as it is. A phone written with spaces or hyphens (`+55 11 91234-5678`) would be
 * evaluated (Excel's space is an operator), so it is prefixed. An .xlsx needs none of this: its cells are
 * string cells, which no spreadsheet evaluates.
 */
export function neutralizeCsvCell(value: string): string {
  if (SIGNED_DIGITS.test(value)) return value;
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

const SIGNED_DIGITS = /^[+-]\d+$/;

/** One CSV field (RFC 4180) for Brazilian Excel: neutralised (neutralizeCsvCell) and quoted when needed. */
function csvField(value: CsvCell): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const cell = neutralizeCsvCell(value);
  return /[";\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
}

/**
 * One line of the .csv every export writes (the reports' and the campaign report): `;` between fields, CRLF
 * at the end. The file starts with a UTF-8 BOM (CSV_BOM) so Brazilian Excel reads it as UTF-8.
 */
export const csvLine = (values: CsvCell[]): string => `${values.map(csvField).join(';')}\r\n`;

export const CSV_BOM = '\uFEFF';
