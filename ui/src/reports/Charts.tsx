import { Bar, BarChart, CartesianGrid, Cell, Legend, Line, LineChart, Pie, PieChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatSeconds } from './reportsApi';

/** recharts, loaded with the report pages only (DESIGN §8: charts lazy-loaded). */
const COLORS = ['#1E88E5', '#43A047', '#FB8C00', '#8E24AA', '#E53935', '#00897B', '#6D4C41'];

export interface Series {
  key: string;
  name: string;
}

type SeriesChartProps = {
  data: object[];
  x: string;
  series: Series[];
  seconds?: boolean;
  /** Counts: whole numbers on the axis. */
  integers?: boolean;
  /** A fixed scale for the values (a 1–5 rating), instead of one fitted to the data. */
  domain?: [number, number];
};

/** Series over `x` as lines or bars: one axis, grid, tooltip and legend for both; `seconds` shows durations. */
function SeriesChart({ kind, data, x, series, seconds, integers, domain }: SeriesChartProps & { kind: 'lines' | 'bars' }) {
  const Chart = kind === 'lines' ? LineChart : BarChart;
  return (
    <ResponsiveContainer width="100%" height={260}>
      <Chart data={data} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" />
        <XAxis dataKey={x} />
        <YAxis allowDecimals={kind === 'bars' && !integers} domain={domain} tickCount={domain ? domain[1] - domain[0] + 1 : undefined} tickFormatter={seconds ? (v: number) => formatSeconds(v) : undefined} width={seconds ? 92 : 40} />
        <Tooltip formatter={seconds ? (v) => formatSeconds(Number(v)) : undefined} />
        <Legend />
        {series.map((s, i) =>
          kind === 'lines' ? (
            <Line key={s.key} type="monotone" dataKey={s.key} name={s.name} stroke={COLORS[i % COLORS.length]} strokeWidth={2} isAnimationActive={false} connectNulls />
          ) : (
            <Bar key={s.key} dataKey={s.key} name={s.name} fill={COLORS[i % COLORS.length]} isAnimationActive={false} />
          ),
        )}
      </Chart>
    </ResponsiveContainer>
  );
}

export function LinesChart(props: SeriesChartProps) {
  return <SeriesChart kind="lines" {...props} />;
}

export function BarsChart(props: SeriesChartProps) {
  return <SeriesChart kind="bars" {...props} />;
}

export function PieChartOf({ data }: { data: { name: string; value: number }[] }) {
  return (
    <ResponsiveContainer width="100%" height={260}>
      <PieChart>
        <Pie data={data} dataKey="value" nameKey="name" outerRadius={90} label isAnimationActive={false}>
          {data.map((d, i) => (
            <Cell key={d.name} fill={COLORS[i % COLORS.length]} />
          ))}
        </Pie>
        <Tooltip />
        <Legend />
      </PieChart>
    </ResponsiveContainer>
  );
}
