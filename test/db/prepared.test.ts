import { expect } from 'chai';
import { preparedStatement } from '../../api/db/prepared';
import { testDatabase } from '../helpers/db';

/**
 * api/db/prepared.ts keeps each statement's row shape (type parsers, mapped keys) after its first execution
 * and builds later rows from it: those rows must be what knex itself answers for the same query, every time.
 */
describe('prepared statements: rows built from the kept row shape', () => {
  const typed = preparedStatement('test_prepared_types', ['n', 'label'], (db, p) =>
    db.select(
      db.raw('?::int AS small_number', [p.n]),
      db.raw('(?::bigint * 1000000000) AS big_number', [p.n]),
      db.raw('(?::numeric / 4) AS a_fraction', [p.n]),
      db.raw('?::text AS some_label', [p.label]),
      db.raw("timestamptz '2026-11-29 13:07:17.123+00' AS created_at"),
      db.raw("jsonb_build_object('snake_key', ?::int, 'list', jsonb_build_array(1, 2)) AS extra_data", [p.n]),
      db.raw('ARRAY[?::int, 7] AS member_ids', [p.n]),
      db.raw('(?::int % 2 = 0) AS is_even', [p.n]),
      db.raw('NULL::text AS nothing_here'),
      db.raw("'ok'::text AS \"alreadyCamel\""),
    ),
  );

  it('answers the same rows as knex on the first execution and on every later one, on every pool connection', async () => {
    const { knex } = await testDatabase();
    const viaKnex = async (n: number, label: string) =>
      knex.select(
        knex.raw('?::int AS small_number', [n]),
        knex.raw('(?::bigint * 1000000000) AS big_number', [n]),
        knex.raw('(?::numeric / 4) AS a_fraction', [n]),
        knex.raw('?::text AS some_label', [label]),
        knex.raw("timestamptz '2026-11-29 13:07:17.123+00' AS created_at"),
        knex.raw("jsonb_build_object('snake_key', ?::int, 'list', jsonb_build_array(1, 2)) AS extra_data", [n]),
        knex.raw('ARRAY[?::int, 7] AS member_ids', [n]),
        knex.raw('(?::int % 2 = 0) AS is_even', [n]),
        knex.raw('NULL::text AS nothing_here'),
        knex.raw("'ok'::text AS \"alreadyCamel\""),
      );
    // More runs at once than the pool has connections: each connection prepares it, later runs reuse the shape.
    const inputs = Array.from({ length: 24 }, (_, i) => [i + 1, i % 3 === 0 ? 'ação' : `rótulo ${i}`] as const);
    const prepared = await Promise.all(inputs.map(([n, label]) => typed.rows<Record<string, unknown>>(knex, { n, label })));
    const expected = await Promise.all(inputs.map(([n, label]) => viaKnex(n, label)));
    expect(prepared).to.deep.equal(expected);
    expect(prepared[3][0]).to.deep.equal({
      smallNumber: 4,
      bigNumber: 4_000_000_000,
      aFraction: 1,
      someLabel: 'ação',
      createdAt: new Date('2026-11-29T13:07:17.123Z'),
      extraData: { snake_key: 4, list: [1, 2] },
      memberIds: [4, 7],
      isEven: true,
      nothingHere: null,
      alreadyCamel: 'ok',
    });
    expect(Object.keys(prepared[3][0])).to.deep.equal(Object.keys(expected[3][0]));
  });

  it('answers no rows as an empty list, and a failing execution rejects with the database error without spoiling the next', async () => {
    const { knex } = await testDatabase();
    const divide = preparedStatement('test_prepared_divide', ['by'], (db, p) => db.select(db.raw('(10 / ?::int) AS quotient', [p.by])).whereRaw('?::int <> 99', [p.by]));
    expect(await divide.rows(knex, { by: 2 })).to.deep.equal([{ quotient: 5 }]);
    expect(await divide.rows(knex, { by: 99 })).to.deep.equal([]);
    const failed = await divide.rows(knex, { by: 0 }).then(
      () => undefined,
      (err: { code?: string }) => err,
    );
    expect(failed?.code).to.equal('22012'); // division_by_zero
    expect(await divide.rows(knex, { by: 5 })).to.deep.equal([{ quotient: 2 }]);
  });
});
