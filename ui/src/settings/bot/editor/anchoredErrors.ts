import type { BotDoc } from '../botTypes';

/**
 * A server field error tied to the path/action it was about, not to its index, so it stays on the right
 * node while paths and actions are reordered after the failed save.
 */
export interface AnchoredError {
  pathGuid?: string;
  actionGuid?: string;
  /** The rest of the key below the anchor (`tag`, `options.0.goTo`), or the whole key for bot-level fields. */
  rest: string;
  message: string;
}

export function anchorErrors(doc: BotDoc, fields: Record<string, string>): AnchoredError[] {
  return Object.entries(fields).map(([key, message]) => {
    const m = /^paths\.(\d+)\.(?:actions\.(\d+)\.)?(.+)$/.exec(key);
    const path = m ? doc.paths[Number(m[1])] : undefined;
    if (!m || !path) return { rest: key, message };
    const action = m[2] !== undefined ? path.actions[Number(m[2])] : undefined;
    if (m[2] !== undefined && !action) return { rest: key, message };
    return { pathGuid: path.guid, actionGuid: action?.guid, rest: m[3]!, message };
  });
}

/** The anchored errors keyed by the document's current indices; errors whose path or action is gone are dropped. */
export function keyErrors(doc: BotDoc, anchored: readonly AnchoredError[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of anchored) {
    if (!e.pathGuid) {
      out[e.rest] ??= e.message;
      continue;
    }
    const i = doc.paths.findIndex((p) => p.guid === e.pathGuid);
    if (i < 0) continue;
    if (!e.actionGuid) {
      out[`paths.${i}.${e.rest}`] ??= e.message;
      continue;
    }
    const j = doc.paths[i]!.actions.findIndex((a) => a.guid === e.actionGuid);
    if (j >= 0) out[`paths.${i}.actions.${j}.${e.rest}`] ??= e.message;
  }
  return out;
}
