import type { z } from 'zod';

/** zod issues as one message per dotted key, the first one kept, like the API reports them. */
export function issuesToKeys(issues: readonly z.core.$ZodIssue[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') continue;
    const key = issue.path.map(String).join('.') || 'body';
    out[key] ??= issue.message;
  }
  return out;
}
