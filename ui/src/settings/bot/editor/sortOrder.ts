/** Index a dragged item lands on, from the pointer's y and the items' vertical middles. */
export function dropIndex(middles: readonly number[], y: number, from: number): number {
  let to = middles.filter((m) => m < y).length;
  if (to > from) to -= 1;
  return Math.max(0, Math.min(to, middles.length - 1));
}
