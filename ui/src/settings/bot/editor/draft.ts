import { ActionSchema, BotSchema, canAppendAction, DEFAULT_INPUT_INVALID, DEFAULT_MENU_INVALID, type ActionType } from '../../../../../api/bots/schema';
import { issuesToKeys } from './fieldErrors';
import type { BotDoc } from '../botTypes';

export type PathDoc = BotDoc['paths'][number];
export type ActionDoc = PathDoc['actions'][number];
export type ActionOf<T extends ActionType> = Extract<ActionDoc, { type: T }>;

/** Pure edits of the bot document; the editor keeps one document and replaces it on every change. */

export const newGuid = () => crypto.randomUUID();

export function findPath(doc: BotDoc, guid: string | undefined): { path: PathDoc; index: number } | undefined {
  const index = doc.paths.findIndex((p) => p.guid === guid);
  return index < 0 ? undefined : { path: doc.paths[index]!, index };
}

export function findAction(path: PathDoc, guid: string | undefined): { action: ActionDoc; index: number } | undefined {
  const index = path.actions.findIndex((a) => a.guid === guid);
  return index < 0 ? undefined : { action: path.actions[index]!, index };
}

/** A fresh action of a type with SPEC §9 defaults, for the "new action" form. */
export function blankAction(type: ActionType, firstPath?: string): ActionDoc {
  const guid = newGuid();
  switch (type) {
    case 'message':
      return { guid, type, text: '' };
    case 'input':
      return { guid, type, text: '', responseType: 'text', inputProp: 'name', inputPropName: '', inputPropCode: '', inputInvalid: DEFAULT_INPUT_INVALID };
    case 'agent':
      return { guid, type, assigneeType: 'group', assignee: undefined as unknown as number, text: '' };
    case 'menu':
      return { guid, type, title: '', text: '', textInvalid: DEFAULT_MENU_INVALID, options: [{ guid: newGuid(), name: '', goTo: null }] };
    case 'goto':
    case 'path':
      return { guid, type, goToPath: firstPath ?? '' };
    case 'integration':
      return { guid, type, name: '', text: '', script: { url: '', method: 'GET', headers: {}, body: '' }, map: [], failurePath: null };
    case 'resolve':
      return { guid, type, text: '' };
    case 'tag':
      return { guid, type, tag: undefined as unknown as number, text: '' };
  }
}

const mapPaths = (doc: BotDoc, guid: string, fn: (p: PathDoc) => PathDoc): BotDoc => ({ ...doc, paths: doc.paths.map((p) => (p.guid === guid ? fn(p) : p)) });

/** Where a new path's node goes: below the lowest node, so it never covers another. */
function freeSpot(doc: BotDoc): { x: number; y: number } {
  const spots = Object.values(doc.layout ?? {});
  if (!spots.length) return { x: 0, y: 0 };
  return { x: Math.min(...spots.map((s) => s.x)), y: Math.max(...spots.map((s) => s.y)) + 260 };
}

export function addPath(doc: BotDoc, name: string): { doc: BotDoc; guid: string } {
  const guid = newGuid();
  return { guid, doc: { ...doc, paths: [...doc.paths, { guid, name, actions: [] }], layout: { ...doc.layout, [guid]: freeSpot(doc) } } };
}

export function renamePath(doc: BotDoc, guid: string, name: string): BotDoc {
  return mapPaths(doc, guid, (p) => ({ ...p, name }));
}

/** Removes a path; menu options and failure branches that led to it lead nowhere, goto/path jumps stay and show their error. */
export function removePath(doc: BotDoc, guid: string): BotDoc {
  const layout = { ...doc.layout };
  delete layout[guid];
  const paths = doc.paths
    .filter((p) => p.guid !== guid)
    .map((p) => ({
      ...p,
      actions: p.actions.map((a): ActionDoc => {
        if (a.type === 'menu') return { ...a, options: a.options.map((o) => (o.goTo === guid ? { ...o, goTo: null } : o)) };
        if (a.type === 'integration' && a.failurePath === guid) return { ...a, failurePath: null };
        return a;
      }),
    }));
  return { ...doc, paths, layout };
}

export function move<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(Math.max(0, Math.min(to, next.length)), 0, item!);
  return next;
}

export function movePath(doc: BotDoc, from: number, to: number): BotDoc {
  return { ...doc, paths: move(doc.paths, from, to) };
}

/**
 * Reorders actions. A terminal action (menu, agent, goto, path, resolve) must stay last (SPEC §5): a move that
 * would put anything after one is refused (returns the document unchanged).
 */
export function moveAction(doc: BotDoc, pathGuid: string, from: number, to: number): BotDoc {
  const found = findPath(doc, pathGuid);
  if (!found) return doc;
  const actions = move(found.path.actions, from, to);
  if (actions.slice(0, -1).some((a) => !canAppendAction({ actions: [a] }))) return doc;
  return mapPaths(doc, pathGuid, (p) => ({ ...p, actions }));
}

/** Adds (when new) or replaces an action, by guid. */
export function saveAction(doc: BotDoc, pathGuid: string, action: ActionDoc): BotDoc {
  return mapPaths(doc, pathGuid, (p) => {
    const at = p.actions.findIndex((a) => a.guid === action.guid);
    return { ...p, actions: at < 0 ? [...p.actions, action] : p.actions.map((a, i) => (i === at ? action : a)) };
  });
}

export function removeAction(doc: BotDoc, pathGuid: string, actionGuid: string): BotDoc {
  return mapPaths(doc, pathGuid, (p) => ({ ...p, actions: p.actions.filter((a) => a.guid !== actionGuid) }));
}

/** The source handles a node offers: one per menu option, goto/path jump and integration failure branch. */
export type JumpHandle = { kind: 'option'; action: string; option: string } | { kind: 'jump'; action: string } | { kind: 'failure'; action: string };

export const handleId = (h: JumpHandle) => (h.kind === 'option' ? `option:${h.action}:${h.option}` : `${h.kind}:${h.action}`);

export function parseHandle(id: string | null | undefined): JumpHandle | undefined {
  const [kind, action, option] = (id ?? '').split(':');
  if (!action) return undefined;
  if (kind === 'option' && option) return { kind, action, option };
  if (kind === 'jump' || kind === 'failure') return { kind, action };
  return undefined;
}

/** Where a handle currently leads (null when nowhere). */
export function jumpTarget(action: ActionDoc, h: JumpHandle): string | null {
  if (h.kind === 'option' && action.type === 'menu') return action.options.find((o) => o.guid === h.option)?.goTo ?? null;
  if (h.kind === 'jump' && (action.type === 'goto' || action.type === 'path')) return action.goToPath || null;
  if (h.kind === 'failure' && action.type === 'integration') return action.failurePath ?? null;
  return null;
}

/** Points a handle at a path (or nowhere), e.g. when a menu option's handle is connected to a path node. */
export function setJump(doc: BotDoc, sourcePath: string, h: JumpHandle, target: string | null): BotDoc {
  return mapPaths(doc, sourcePath, (p) => ({
    ...p,
    actions: p.actions.map((a): ActionDoc => {
      if (a.guid !== h.action) return a;
      if (h.kind === 'option' && a.type === 'menu') return { ...a, options: a.options.map((o) => (o.guid === h.option ? { ...o, goTo: target } : o)) };
      if (h.kind === 'jump' && (a.type === 'goto' || a.type === 'path') && target) return { ...a, goToPath: target };
      if (h.kind === 'failure' && a.type === 'integration') return { ...a, failurePath: target };
      return a;
    }),
  }));
}

/**
 * Whether a drag from a source handle to a path node may become an edge: the handle must be a jump of an
 * existing action, the target another path's entry (a menu may lead back to its own path, since it waits for
 * a reply; a goto/path to itself would loop without waiting and is refused).
 */
export function isValidJump(doc: BotDoc, c: { source: string | null; sourceHandle?: string | null; target: string | null; targetHandle?: string | null }): boolean {
  const h = parseHandle(c.sourceHandle);
  if (!h || !c.source || !c.target || (c.targetHandle != null && c.targetHandle !== 'in')) return false;
  const source = findPath(doc, c.source);
  if (!source || !findPath(doc, c.target)) return false;
  const action = findAction(source.path, h.action)?.action;
  if (!action) return false;
  if (h.kind === 'option') return action.type === 'menu' && action.options.some((o) => o.guid === h.option);
  if (h.kind === 'jump') return (action.type === 'goto' || action.type === 'path') && c.target !== c.source;
  return action.type === 'integration';
}

/** Field errors of the whole document with the API's keys (`paths.0.actions.2.text`). */
export function validateDoc(doc: BotDoc): Record<string, string> {
  const result = BotSchema.safeParse(doc);
  return result.success ? {} : issuesToKeys(result.error.issues);
}

/** Field errors of one action, keyed relative to the action (`options.0.name`). */
export function validateAction(action: ActionDoc): { errors: Record<string, string>; value?: ActionDoc } {
  const result = ActionSchema.safeParse(action);
  return result.success ? { errors: {}, value: result.data as ActionDoc } : { errors: issuesToKeys(result.error.issues) };
}

/** The part of a document-wide error map that belongs to one action, re-keyed relative to it. */
export function actionErrors(errors: Record<string, string>, pathIndex: number, actionIndex: number): Record<string, string> {
  const prefix = `paths.${pathIndex}.actions.${actionIndex}.`;
  return Object.fromEntries(Object.entries(errors).flatMap(([k, v]) => (k.startsWith(prefix) ? [[k.slice(prefix.length), v]] : [])));
}
