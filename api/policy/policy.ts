import { errors } from '../http/errors';
import { AccessLevel, type AccessLevelValue } from './levels';

/** Who is asking: every authenticated request carries this (ctx.state.auth). */
export interface Actor {
  operatorId: number;
  workspaceId: number;
  accessLevel: AccessLevelValue;
  /** 'operator' for a logged-in person, 'api' for the workspace API token. */
  kind: 'operator' | 'api';
}

/**
 * The one policy module (DESIGN.md §4): every "may this operator do X" question is answered here.
 * Actions are named for what they protect; SPEC §6 sets the minimum level of each.
 */
const MIN_LEVEL = {
  'workspace.update': AccessLevel.MASTER,
  'settings.manage': AccessLevel.MASTER,
  'campaigns.manage': AccessLevel.MASTER,
  'contracts.manage': AccessLevel.MASTER, // the leftover contracts area (docs/decisions.md)
  'channels.manage': AccessLevel.MASTER,
  'members.manage': AccessLevel.MASTER,
  'groups.manage': AccessLevel.MASTER,
  'businessHours.manage': AccessLevel.MASTER,
  'assignment.manage': AccessLevel.MASTER,
  'bots.manage': AccessLevel.MASTER,
  'webhooks.manage': AccessLevel.MASTER,
  'plugins.manage': AccessLevel.MASTER,
  'plugins.read': AccessLevel.OPERATOR_RESTRICT, // the inbox's right panel loads every plugin
  'api.manage': AccessLevel.MASTER,
  'billing.view': AccessLevel.MASTER,
  'billing.manage': AccessLevel.ADMIN,
  'customers.merge': AccessLevel.MASTER,
  'customers.import': AccessLevel.MASTER,
  'segments.manageAny': AccessLevel.MASTER,
  'conversations.seeAll': AccessLevel.MASTER,
  'team.read': AccessLevel.OPERATOR_RESTRICT, // names of members and groups: the inbox's transfer menus and filters
  'tags.manage': AccessLevel.OPERATOR_RESTRICT,
  'quickPhrases.manage': AccessLevel.OPERATOR_RESTRICT,
  'reports.view': AccessLevel.OPERATOR_RESTRICT,
  'funnels.read': AccessLevel.OPERATOR_RESTRICT, // the kanban's columns by stage (docs/kanban.md)
  'funnels.manage': AccessLevel.MASTER,
  'teamRooms.manage': AccessLevel.MASTER, // the team chat's own rooms: create, rename, members, delete (docs/team-chat.md)
  'twoFactor.require': AccessLevel.OWNER, // requiring two-factor login of every member (docs/two-factor.md)
} as const satisfies Record<string, AccessLevelValue>;

export type Action = keyof typeof MIN_LEVEL;

export function can(actor: Actor, action: Action): boolean {
  return actor.accessLevel >= MIN_LEVEL[action];
}

export function authorize(actor: Actor, action: Action): void {
  if (!can(actor, action)) throw errors.forbidden();
}

/**
 * Calls about the person rather than the workspace (profile, password, confirmation mail, new workspaces)
 * need a person's session. The workspace API token acts for the workspace, not for whoever generated it:
 * otherwise a leaked token could rename that person or mint their sessions (POST /workspace answers one,
 * with a renewal token that switches into every workspace at the person's own level).
 */
export function authorizePerson(actor: Actor): void {
  if (actor.kind !== 'operator') throw errors.forbidden('O token de API não pode ser usado para esta ação.');
}

/** SPEC §6: nobody edits or deletes oneself or an agent of equal or higher level. */
export function canManageMember(actor: Actor, target: { operatorId: number; accessLevel: number }): boolean {
  if (actor.operatorId === target.operatorId) return false;
  return can(actor, 'members.manage') && target.accessLevel < actor.accessLevel;
}

/** Levels an actor may give when inviting or editing: at or below their own and below owner. */
export function grantableLevels(actor: Actor): AccessLevelValue[] {
  return ([9, 6, 3, 2] as AccessLevelValue[]).filter((l) => l <= actor.accessLevel && l < AccessLevel.OWNER);
}
