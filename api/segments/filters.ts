import { z } from 'zod';

const ids = z.array(z.number().int().positive()).max(200).default([]);

/**
 * Saved-filter ("segment") filters, SPEC §3. Shared by the API (list query) and the filter editor.
 * `assigned`: true = only assigned, false = only unassigned; `open`: true = open, false = resolved;
 * opposing boxes are mutually exclusive in the editor, so each is a tri-state here (undefined = either).
 */
export const SegmentFiltersSchema = z.object({
  my: z.boolean().optional(),
  assigned: z.boolean().optional(),
  open: z.boolean().optional(),
  starred: z.boolean().optional(),
  channels: ids,
  groups: ids,
  agents: ids,
  tags: ids,
  customerProps: z
    .object({
      property: z.string().trim().max(60).optional(),
      value: z.string().trim().max(500).optional(),
    })
    .optional()
    .superRefine((v, ctx) => {
      if (v?.property && !v.value) ctx.addIssue({ code: 'custom', path: ['value'], message: 'Informe o valor do atributo.' });
    })
    // An attribute without a name filters nothing: it is dropped rather than stored half-filled.
    .transform((v) => (v?.property ? { property: v.property, ...(v.value ? { value: v.value } : {}) } : undefined)),
});
export type SegmentFilters = z.infer<typeof SegmentFiltersSchema>;
