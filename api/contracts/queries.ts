import type { Knex } from 'knex';
import type { QueryBuilder } from 'objection';
import type { Actor } from '../policy/policy';
import { likePattern, type ListOptions, type ListQuery } from '../http/listQuery';
import { errors } from '../http/errors';
import { issuesToFields } from '../http/validate';
import { scoped } from '../db/scope';
import { Contract, CONTRACT_STATUSES } from '../models/Contract';
import { CONTRACTS_PAGE_SIZE, ContractPeriodSchema } from './schema';

/** GET /contract: tabs are the `status` filter (Pendentes processed, Concluídos formalized), the period is `from`/`to`. */
export const CONTRACT_LIST_OPTIONS: ListOptions = {
  sortable: ['createdAt', 'name', 'loanNumber', 'status', 'code', 'formalized', 'id'],
  defaultSort: { field: 'createdAt', order: 'desc' },
  filterable: ['status', 'code', 'from', 'to'],
  defaultLimit: CONTRACTS_PAGE_SIZE,
  maxLimit: 200,
};

const SORT_COLUMNS: Record<string, string> = { createdAt: 'created_at', name: 'name', loanNumber: 'loan_number', status: 'status', code: 'code', formalized: 'formalized_at', id: 'id' };

const asList = (v: unknown) => (Array.isArray(v) ? v : [v]).map(String);

/** The filters and search of a list request applied to the actor's contracts. */
// Answered inside an object: a query builder is thenable, so an async function would run it.
async function filtered(knex: Knex, actor: Actor, q: ListQuery): Promise<{ query: QueryBuilder<Contract, Contract[]> }> {
  const query = scoped(Contract, actor) as unknown as QueryBuilder<Contract, Contract[]>;
  if (q.ids) query.whereIn('contracts.id', q.ids);
  if (q.filter.status !== undefined) {
    const statuses = asList(q.filter.status);
    if (!statuses.every((s) => (CONTRACT_STATUSES as readonly string[]).includes(s))) throw errors.field('status', 'Status de contrato inválido.');
    query.whereIn('contracts.status', statuses);
  }
  if (q.filter.code !== undefined) query.whereIn('contracts.code', asList(q.filter.code));
  const period = ContractPeriodSchema.safeParse({ from: q.filter.from ?? undefined, to: q.filter.to ?? undefined });
  if (!period.success) throw errors.validation(issuesToFields(period.error.issues));
  const { from, to } = period.data;
  if (from || to) {
    const zone = ((await knex('workspaces').where('id', actor.workspaceId).first('time_zone')) as { timeZone?: string } | undefined)?.timeZone ?? 'America/Sao_Paulo';
    if (from) query.where('contracts.created_at', '>=', knex.raw('(?::date)::timestamp AT TIME ZONE ?', [from, zone]));
    if (to) query.where('contracts.created_at', '<', knex.raw('(?::date + 1)::timestamp AT TIME ZONE ?', [to, zone]));
  }
  const text = q.query;
  if (text) {
    const pattern = likePattern(text);
    const digits = text.replace(/\D/g, '');
    // A CPF typed with its mask ('529.982.247-25') finds the 11 digits kept.
    const cpfSearch = digits.length >= 3 && /^[\d.\-\s]+$/.test(text);
    query.where((w) => {
      w.where('contracts.name', 'ilike', pattern).orWhere('contracts.loan_number', 'ilike', pattern).orWhere('contracts.file_name', 'ilike', pattern);
      if (cpfSearch) w.orWhere('contracts.cpf', 'like', likePattern(digits));
      if (/^[0-9a-f]{8,64}$/i.test(text)) w.orWhere('contracts.stamp', 'like', `${text.toLowerCase()}%`);
    });
  }
  return { query };
}

/** One page of the actor's contracts with its counts (matchCount: the filters; totalCount: every contract of the workspace). */
export async function listContracts(knex: Knex, actor: Actor, q: ListQuery): Promise<{ rows: Contract[]; matchCount: number; totalCount: number }> {
  const { query } = await filtered(knex, actor, q);
  const column = `contracts.${SORT_COLUMNS[q.sort.field] ?? 'created_at'}`;
  const [rows, matchCount, totalCount] = await Promise.all([
    query.clone().orderBy(column, q.sort.order).orderBy('contracts.id', q.sort.order).limit(q.limit).offset(q.offset),
    query.clone().resultSize(),
    scoped(Contract, actor).resultSize(),
  ]);
  return { rows: rows as Contract[], matchCount, totalCount };
}
