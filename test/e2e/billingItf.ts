/**
 * An Interleaved 2 of 5 reader for the tests, apart from the UI's encoder (ui/src/settings/billing/itf.ts):
 * element widths are sorted into narrow and wide by a threshold, each digit's five elements are weighted
 * 1, 2, 4, 7, 0 (the symbology's definition; two wide elements per digit, 4 + 7 = 11 meaning 0).
 */
const WEIGHTS = [1, 2, 4, 7, 0];

function digitOf(wide: boolean[]): number {
  if (wide.filter(Boolean).length !== 2) throw new Error(`not an ITF digit: ${wide.map((w) => (w ? 'W' : 'n')).join('')}`);
  const sum = wide.reduce((s, w, i) => s + (w ? WEIGHTS[i]! : 0), 0);
  return sum === 11 ? 0 : sum;
}

/** The digits of an ITF symbol given its element widths (bar, space, bar, ... starting with the start pattern's bar). */
export function readItf(widths: number[]): string {
  const narrow = Math.min(...widths);
  const wide = widths.map((w) => w > narrow * 1.8);
  const start = wide.slice(0, 4);
  const stop = wide.slice(-3);
  if (start.some(Boolean)) throw new Error('no ITF start pattern');
  if (!(stop[0] && !stop[1] && !stop[2])) throw new Error('no ITF stop pattern');
  const body = wide.slice(4, -3);
  if (body.length % 10 !== 0) throw new Error(`ITF body of ${body.length} elements`);
  let digits = '';
  for (let i = 0; i < body.length; i += 10) {
    const group = body.slice(i, i + 10);
    digits += String(digitOf(group.filter((_, k) => k % 2 === 0)));
    digits += String(digitOf(group.filter((_, k) => k % 2 === 1)));
  }
  return digits;
}

/** Element widths from the bars' x and width (spaces are the gaps between them). */
export function widthsFromBars(bars: { x: number; width: number }[]): number[] {
  const sorted = [...bars].sort((a, b) => a.x - b.x);
  const widths: number[] = [];
  sorted.forEach((bar, i) => {
    if (i > 0) {
      const prev = sorted[i - 1]!;
      widths.push(Math.round((bar.x - (prev.x + prev.width)) * 1000) / 1000);
    }
    widths.push(bar.width);
  });
  return widths;
}
