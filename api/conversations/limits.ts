/**
 * Limits of a stored message, on every channel and in the inbox form. Browser code imports this file
 * (through api/inbox/schema.ts): it imports nothing.
 */

/** SPEC gives no limit; this one keeps a message row and its realtime event small. */
export const MAX_MESSAGE_CHARS = 20_000;
