/**
 * The rating scale of CSAT (docs/csat.md): pure constants, shared by the api, the app and widget.js (which must
 * not carry zod, so it imports this file and not ./schema).
 */

/** A rating's faces, 1 to 5 (the 'emojis' scale, and accepted as an answer on every scale). */
export const CSAT_EMOJIS = ['😡', '🙁', '😐', '🙂', '😍'] as const;
/** What each rating means, 1 to 5 (buttons' accessible names, reports). */
export const CSAT_LABELS = ['Muito insatisfeito', 'Insatisfeito', 'Neutro', 'Satisfeito', 'Muito satisfeito'] as const;
export const CSAT_COMMENT_MAX = 1000;
