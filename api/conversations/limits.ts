/**
 * Limits of a stored message, on every channel and in the inbox form. Browser code imports this file
 * (through api/inbox/schema.ts): it imports nothing.
 */

/** SPEC gives no limit; this one keeps a message row and its realtime event small. */
export const MAX_MESSAGE_CHARS = 20_000;

/**
 * `around` pages hold up to this many messages newer than the one asked for (docs/search.md "Opening a
 * hit"). Here rather than in api/inbox/schema.ts so the inbox's first paint does not load zod for it.
 */
export const MESSAGES_AROUND_NEWER = 10;
