import { itfBars } from './itf';

/** Quiet zone on each side, in narrow units (FEBRABAN asks for at least 10 times the narrow bar). */
const QUIET = 10;

/**
 * The boleto's 44-digit barcode drawn as Interleaved 2 of 5 in SVG (itf.ts): crisp on screen and on paper,
 * scaled to the box's width with the bars' proportions kept.
 */
export function Barcode({ digits, label, height = 50 }: { digits: string; label: string; height?: number }) {
  const { bars, width } = itfBars(digits);
  const total = width + 2 * QUIET;
  return (
    <svg
      role="img"
      aria-label={label}
      data-testid="boleto-barcode"
      data-digits={digits}
      viewBox={`0 0 ${total} ${height}`}
      preserveAspectRatio="none"
      style={{ width: '100%', maxWidth: total * 1.6, height, display: 'block', background: '#fff' }}
      shapeRendering="crispEdges"
    >
      {bars.map((bar) => (
        <rect key={bar.x} x={bar.x + QUIET} y={0} width={bar.width} height={height} fill="#000" />
      ))}
    </svg>
  );
}
