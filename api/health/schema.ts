import { z } from 'zod';

/** What GET /api/health checks (DESIGN.md §3): the database, Temporal, the MQTT broker and a worker on the task queue. */
export const HEALTH_PARTS = ['db', 'temporal', 'mqtt', 'worker'] as const;
export type HealthPart = (typeof HEALTH_PARTS)[number];

/**
 * `?parts=db,temporal,mqtt` checks only those parts: for what runs an api without a worker on purpose (a
 * test harness, a probe of the api process alone). Without it every part is checked.
 */
export const HealthQuerySchema = z.object({
  parts: z
    .string()
    .optional()
    .transform((raw, ctx): HealthPart[] => {
      if (raw === undefined) return [...HEALTH_PARTS];
      const parts = [...new Set(raw.split(',').map((p) => p.trim()).filter(Boolean))];
      const unknown = parts.filter((p) => !(HEALTH_PARTS as readonly string[]).includes(p));
      if (!parts.length || unknown.length) {
        ctx.addIssue({ code: 'custom', message: `Partes válidas: ${HEALTH_PARTS.join(', ')}.` });
        return z.NEVER;
      }
      return parts as HealthPart[];
    }),
});
export type HealthQuery = z.output<typeof HealthQuerySchema>;
