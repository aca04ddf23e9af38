import type { AnyQueryBuilder } from 'objection';

/** Modifiers several models share, for a table's own columns. */

/** The manual order of a settings list (`sort`), ties by id. */
export const bySort =
  (table: string) =>
  (qb: AnyQueryBuilder): void => {
    qb.orderBy(`${table}.sort`).orderBy(`${table}.id`);
  };

/** Newest first (created_at, then id, both descending). */
export const newestFirst =
  (table: string) =>
  (qb: AnyQueryBuilder): void => {
    qb.orderBy(`${table}.created_at`, 'desc').orderBy(`${table}.id`, 'desc');
  };

/** `open` and `finished`: rows by their is_finished flag (conversations, calls). */
export const finishedFlag = (table: string) => ({
  open(qb: AnyQueryBuilder): void {
    qb.where(`${table}.is_finished`, false);
  },
  finished(qb: AnyQueryBuilder): void {
    qb.where(`${table}.is_finished`, true);
  },
});

/**
 * Rows the operator has a link row for (a favourite, a subscription): `link` names the link table and its
 * column pointing at `table.id`; the link's `operator_id` names the operator.
 */
export const linkedToOperator =
  (table: string, link: { table: string; column: string }) =>
  (qb: AnyQueryBuilder, operatorId: number): void => {
    qb.whereExists((sub) => {
      sub
        .select(1)
        .from(link.table)
        .whereRaw(`${link.table}.${link.column} = ${table}.id`)
        .where(`${link.table}.operator_id`, operatorId);
    });
  };
