import { normalizeQuickPhraseTag } from '../../../../api/quickPhrases/schema';

/**
 * SPEC §5 tag rule applied as the operator types, so the field shows what will be saved. Spaces turn
 * into underscores before the shared rule runs: it trims, which would swallow the space just typed.
 */
export function normalizeTag(raw: string): string {
  return raw === '' ? '' : normalizeQuickPhraseTag(raw.replace(/\s/g, '_'));
}

/** SPEC §9: the list shows a phrase's first 45 characters. */
export const PHRASE_PREVIEW_LENGTH = 45;

export function previewOf(phrase: string): string {
  const flat = phrase.replace(/\s+/g, ' ').trim();
  return flat.length > PHRASE_PREVIEW_LENGTH ? `${flat.slice(0, PHRASE_PREVIEW_LENGTH)}…` : flat;
}
