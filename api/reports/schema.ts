import { z } from 'zod';
import { queryDay } from '../http/textFields';

/**
 * Queries of the report calls (docs/reports.md, SPEC §7). Browser code imports this file: it may import
 * only zod. Ids arrive as `channels=1,2` or repeated `channels=1&channels=2`.
 */
/** SPEC §2 contacts report labels of a channel type, shared by the contacts report and the pages' charts. */
export const CHANNEL_LABELS: Record<string, string> = {
  whatsapp: 'WhatsApp',
  instagram: 'Instagram',
  facebook: 'Messenger',
  telegram: 'Telegram',
  email: 'Email',
  custom: 'Customizado',
  widget: 'Widget',
};

export const FREQUENCIES = ['daily', 'weekly', 'monthly'] as const;
export type Frequency = (typeof FREQUENCIES)[number];
export const MAX_PERIOD_DAYS = 366;
export const DEFAULT_PERIOD_DAYS = 7;
export const DRILL_METRICS = ['new', 'resolved', 'tme', 'tmr', 'tma'] as const;
export type DrillMetric = (typeof DRILL_METRICS)[number];

const day = queryDay('Data inválida (use AAAA-MM-DD).');

const ids = z
  .union([z.string(), z.array(z.string())])
  .transform((v) => (Array.isArray(v) ? v : [v]).flatMap((s) => s.split(',')).map((s) => s.trim()).filter(Boolean))
  .pipe(z.array(z.string().regex(/^[1-9][0-9]{0,9}$/, 'Identificador inválido.').transform(Number)).max(200, 'No máximo 200 itens.'));

export const ReportQuerySchema = z
  .object({
    from: day.optional(),
    to: day.optional(),
    frequency: z.enum(FREQUENCIES, { error: 'Frequência inválida (use daily, weekly ou monthly).' }).default('daily'),
    channels: ids.optional(),
    groups: ids.optional(),
    agents: ids.optional(),
    tags: ids.optional(),
    businessHours: z.enum(['true', 'false'], { error: 'Use true ou false.' }).optional(),
    // react-admin and the list pages send these; the figures ignore them.
    limit: z.string().optional(),
    offset: z.string().optional(),
    metric: z.enum(DRILL_METRICS, { error: 'Indicador inválido.' }).optional(),
  })
  .strip();

export type ReportQuery = z.output<typeof ReportQuerySchema>;
