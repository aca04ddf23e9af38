import type { Knex } from 'knex';
import type { Context } from 'koa';
import { scoped } from '../db/scope';
import { errors } from '../http/errors';
import { likePattern, parseListQuery, writeList, type ListQuery, type ListOptions } from '../http/listQuery';
import { WorkspaceMember } from '../models/WorkspaceMember';
import { isAccessLevel } from '../policy/levels';
import type { Actor } from '../policy/policy';
import { groupsByOperator } from '../groups/queries';

/** A member of the workspace as the members screen and the inbox menus show it (SPEC §3 "Agent"). */
export interface MemberItem {
  id: number;
  name: string;
  email: string;
  phone: string | null;
  avatar: string | null;
  accessLevel: number;
  isActive: boolean;
  verificationLevel: number;
  isOnline: boolean;
  /** Chosen in the header (docs/assignment.md "Availability"); with `isOnline` false the agent is offline. */
  availability: 'online' | 'ausente';
  groups: number[];
}

type MemberRow = Omit<MemberItem, 'groups'>;

export const MEMBER_LIST: ListOptions = {
  sortable: ['name', 'email', 'accessLevel'],
  defaultSort: { field: 'name', order: 'asc' },
  filterable: ['isActive', 'accessLevel'],
  defaultLimit: 20,
  maxLimit: 1000,
};

const SORT_SQL: Record<string, string> = {
  name: 'lower(operators.name)',
  email: 'lower(operators.email)',
  accessLevel: 'workspace_members.access_level',
};

function members(actor: Actor) {
  return scoped(WorkspaceMember, actor)
    .join('operators', 'operators.id', 'workspace_members.operator_id')
    .select(
      'operators.id',
      'operators.name',
      'operators.email',
      'operators.phone',
      'operators.avatar',
      'operators.verification_level',
      'workspace_members.access_level',
      'workspace_members.is_active',
      'workspace_members.is_online',
      'workspace_members.availability',
    );
}

function booleanFilter(v: unknown): boolean {
  if (v === true || v === 'true' || v === '1') return true;
  if (v === false || v === 'false' || v === '0') return false;
  throw errors.field('isActive', 'Deve ser verdadeiro ou falso.');
}

function levelsFilter(v: unknown): number[] {
  const levels = (Array.isArray(v) ? v : String(v).split(',')).map((x) => Number(x));
  if (!levels.length || !levels.every(isAccessLevel)) throw errors.field('accessLevel', 'Nível de acesso inválido.');
  return levels;
}

async function withGroups(db: Knex, actor: Actor, rows: MemberRow[]): Promise<MemberItem[]> {
  const byOperator = await groupsByOperator(db, actor, rows.map((r) => r.id));
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    email: r.email,
    phone: r.phone,
    avatar: r.avatar,
    accessLevel: r.accessLevel,
    isActive: r.isActive,
    verificationLevel: r.verificationLevel,
    isOnline: r.isOnline,
    availability: r.availability,
    groups: byOperator.get(r.id) ?? [],
  }));
}

/** One page of the workspace's members in either list dialect: one query for the page, one for their groups. */
export async function listMembers(db: Knex, actor: Actor, q: ListQuery) {
  const filtered = members(actor);
  if (q.ids) filtered.whereIn('operators.id', q.ids);
  if (q.filter.isActive !== undefined) filtered.where('workspace_members.is_active', booleanFilter(q.filter.isActive));
  if (q.filter.accessLevel !== undefined) filtered.whereIn('workspace_members.access_level', levelsFilter(q.filter.accessLevel));
  if (q.query) {
    const pattern = likePattern(q.query);
    filtered.where((w) => {
      w.where('operators.name', 'ilike', pattern).orWhere('operators.email', 'ilike', pattern);
    });
  }
  const [rows, matchCount, totalCount] = await Promise.all([
    filtered
      .clone()
      .orderByRaw(`${SORT_SQL[q.sort.field]} ${q.sort.order}, operators.id ${q.sort.order}`)
      .limit(q.limit)
      .offset(q.offset),
    filtered.clone().resultSize(),
    scoped(WorkspaceMember, actor).resultSize(),
  ]);
  return { rows: await withGroups(db, actor, rows as unknown as MemberRow[]), matchCount, totalCount };
}

/** Another workspace's operator is a 404 like a missing one. */
export async function getMember(db: Knex, actor: Actor, operatorId: number): Promise<MemberItem> {
  const row = await members(actor).where('operators.id', operatorId).first();
  if (!row) throw errors.notFound();
  const [item] = await withGroups(db, actor, [row as unknown as MemberRow]);
  return item;
}

export async function respondMemberList(ctx: Context, db: Knex, actor: Actor): Promise<void> {
  const q = parseListQuery(ctx, MEMBER_LIST);
  writeList(ctx, 'operator', q, await listMembers(db, actor, q));
}
