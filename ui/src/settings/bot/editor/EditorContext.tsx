import { createContext, useContext } from 'react';
import type { BotChoices, BotDoc } from '../botTypes';

export interface EditorState {
  doc: BotDoc;
  /** Replaces the document (marks it unsaved, unless `silent`: the layout applied on open is no edit). */
  update(fn: (doc: BotDoc) => BotDoc, options?: { silent?: boolean }): void;
  /** Field errors of the last save attempt (client or server), keyed like the API (`paths.0.actions.2.tag`). */
  errors: Record<string, string>;
  /** Drops the errors under a key prefix once that part was edited again. */
  clearErrors(prefix: string): void;
  choices: BotChoices;
  /** `/settings/bot/{id|new}`: the editor's sub-routes hang below it. */
  base: string;
}

export const EditorContext = createContext<EditorState | null>(null);

export function useEditor(): EditorState {
  const state = useContext(EditorContext);
  if (!state) throw new Error('useEditor outside the bot editor');
  return state;
}

/** Errors whose key starts with the prefix (a path's or an action's), re-keyed relative to it. */
export function errorsUnder(errors: Record<string, string>, prefix: string): Record<string, string> {
  return Object.fromEntries(Object.entries(errors).flatMap(([k, v]) => (k.startsWith(prefix) ? [[k.slice(prefix.length), v]] : [])));
}
