import { CSAT_COMMENT_MAX, CSAT_EMOJIS } from './scale';

export interface ParsedRating {
  rating: number;
  comment: string | null;
}

const KEYCAP = /^([1-5])\uFE0F?\u20E3/u;
const STARS = /^(?:⭐\uFE0F?|★){1,5}/u;
/** A lone digit 1–5 followed by nothing, or by a separator and the comment ('5', '4 - ótimo', '3, demorou'). */
const DIGIT = /^([1-5])(?![0-9.,]\d)(?:$|[\s.,;:!)\-–—/]+|(?=[^\p{L}\p{N}]))/u;

/** The quoted history under an e-mail reply: the comment stops before it. */
function withoutQuote(text: string): string {
  const lines: string[] = [];
  for (const line of text.split('\n')) {
    if (/^\s*>/.test(line) || /^\s*(Em|On)\s.+(escreveu|wrote):?\s*$/i.test(line) || /^-{2,}\s*(Mensagem original|Original Message)/i.test(line)) break;
    lines.push(line);
  }
  return lines.join('\n');
}

function commentOf(rest: string): string | null {
  const comment = withoutQuote(rest)
    .replace(/^[\s.,;:!)\-–—/]+/u, '')
    .trim();
  return comment ? comment.slice(0, CSAT_COMMENT_MAX) : null;
}

/**
 * A customer's text read as an answer to the CSAT question (docs/csat.md "Answers"): it starts with a rating —
 * a digit 1–5 standing alone ('5', '5 ótimo', '4 - demorou um pouco'), a keycap emoji (4️⃣), one of the
 * scale's faces (😡 🙁 😐 🙂 😍) or one to five stars — optionally followed by a comment. Anything else (a
 * number such as '10', '0', '6' or '12345', a text that does not start with a rating) is no answer: the
 * message is an ordinary one.
 */
export function parseRating(input: string): ParsedRating | null {
  const text = input.replace(/^\s+/, '');
  if (!text) return null;
  const keycap = KEYCAP.exec(text);
  if (keycap) return { rating: Number(keycap[1]), comment: commentOf(text.slice(keycap[0].length)) };
  const stars = STARS.exec(text);
  if (stars) return { rating: [...stars[0].replace(/\uFE0F/g, '')].length, comment: commentOf(text.slice(stars[0].length)) };
  const face = CSAT_EMOJIS.findIndex((e) => text.startsWith(e));
  if (face >= 0) return { rating: face + 1, comment: commentOf(text.slice(CSAT_EMOJIS[face].length).replace(/^\uFE0F/, '')) };
  const digit = DIGIT.exec(text);
  if (digit) return { rating: Number(digit[1]), comment: commentOf(text.slice(1)) };
  return null;
}
