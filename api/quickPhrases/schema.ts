import { z } from 'zod';
import type { QuickPhrasePrivacy } from '../models/QuickPhrase';
import { requiredText } from '../http/textFields';

// A type-only import keeps the model (and objection) out of the UI bundle that shares this schema.
const QUICK_PHRASE_PRIVACY = ['public', 'private'] as const satisfies readonly QuickPhrasePrivacy[];

/**
 * SPEC §5: the tag is forced to start with one slash, other slashes are removed and whitespace becomes
 * underscores ('//a b/c' → '/a_bc'). Exported so the UI shows the normalised tag while typing.
 */
export function normalizeQuickPhraseTag(raw: string): string {
  const body = raw.trim().replace(/\//g, '').replace(/\s/g, '_');
  return `/${body}`;
}

const TAG_REQUIRED = 'A tag é obrigatória.';

/** Shared by the API and the quick phrase form in the UI. */
export const QuickPhraseSchema = z.object({
  phrase: requiredText(2000, { required: 'A frase é obrigatória.', tooLong: 'A frase deve ter no máximo 2000 caracteres.' }),
  tag: z
    .string({ error: TAG_REQUIRED })
    .transform(normalizeQuickPhraseTag)
    .pipe(z.string().min(2, TAG_REQUIRED).max(60, 'A tag deve ter no máximo 60 caracteres.')),
  privacy: z.enum(QUICK_PHRASE_PRIVACY, { error: 'A visibilidade é obrigatória.' }),
  hotkey: z
    .string()
    .trim()
    .max(20, 'O atalho de teclado deve ter no máximo 20 caracteres.')
    .nullish()
    .transform((v) => (v ? v : null)),
});
export type QuickPhraseReq = z.infer<typeof QuickPhraseSchema>;

export const QuickPhraseUpdateSchema = QuickPhraseSchema.partial();
export type QuickPhraseUpdateReq = z.infer<typeof QuickPhraseUpdateSchema>;
