/**
 * Interleaved 2 of 5 (ITF), the symbology of a boleto's 44-digit barcode (FEBRABAN): digits in pairs, the
 * first of each pair drawn by five bars and the second by the five spaces between them, each element narrow
 * or wide; a start (narrow bar, space, bar, space) and a stop (wide bar, narrow space, narrow bar).
 */

/** Per digit, which of its five elements are wide. */
const PATTERNS = ['00110', '10001', '01001', '11000', '00101', '10100', '01100', '00011', '10010', '01010'] as const;

/** FEBRABAN allows a wide element of 2.25 to 3 times the narrow one. */
export const WIDE = 3;

/** Widths (in narrow units) of the elements left to right, alternating bar and space, starting with a bar. */
export function itfWidths(digits: string): number[] {
  if (!/^\d*$/.test(digits) || digits.length % 2 !== 0) throw new Error('ITF needs an even number of digits');
  const widths = [1, 1, 1, 1];
  for (let i = 0; i < digits.length; i += 2) {
    const bars = PATTERNS[Number(digits[i])]!;
    const spaces = PATTERNS[Number(digits[i + 1])]!;
    for (let k = 0; k < 5; k++) widths.push(bars[k] === '1' ? WIDE : 1, spaces[k] === '1' ? WIDE : 1);
  }
  widths.push(WIDE, 1, 1);
  return widths;
}

export interface Bar {
  x: number;
  width: number;
}

/** The bars (dark elements) with their x in narrow units, and the total width of the symbol. */
export function itfBars(digits: string): { bars: Bar[]; width: number } {
  const bars: Bar[] = [];
  let x = 0;
  itfWidths(digits).forEach((w, i) => {
    if (i % 2 === 0) bars.push({ x, width: w });
    x += w;
  });
  return { bars, width: x };
}
