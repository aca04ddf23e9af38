/**
 * `npm run coupon -- <command>`: the product operator's coupons (docs/billing.md "Coupons").
 *
 *   create --code CODE --percent 20 --charges 3 [--annual | --any] [--expires YYYY-MM-DD] [--max-redemptions N]
 *   list
 *   disable --code CODE
 *
 * Without --annual or --any a coupon is for monthly billing. The database is DATABASE_URL; unset, the
 * embedded PostgreSQL of `npm start` (DATA_DIR/pg.password, port EMBEDDED_PG_PORT) while it runs.
 */
import { parseArgs } from 'node:util';
import type { Knex } from 'knex';
import { loadConfig } from '../api/config';
import { createKnex } from '../api/db/knex';
import { CouponInputError, createCoupon, disableCoupon, listCoupons, type CouponListing } from '../api/billing/couponsAdmin';
import type { CouponRow } from '../api/billing/coupons';
import { instanceDatabaseUrl } from './lib/instance';

const USAGE = `Uso:
  npm run coupon -- create --code CODIGO --percent 20 --charges 3 [--annual | --any] [--expires AAAA-MM-DD] [--max-redemptions N]
  npm run coupon -- list
  npm run coupon -- disable --code CODIGO`;

function databaseUrl(): string {
  const config = loadConfig();
  return instanceDatabaseUrl(config.dataDir) ?? config.databaseUrl;
}

const pct = (percent: number) => `${percent.toLocaleString('pt-BR', { maximumFractionDigits: 2 })}%`;
const BILLING = { monthly: 'mensal', annual: 'anual', any: 'mensal ou anual' } as const;
const dayOf = (d: Date | null) => (d ? new Date(d.getTime() - 86_400_000).toLocaleDateString('pt-BR', { timeZone: 'America/Sao_Paulo' }) : 'sem validade');

function describe(c: CouponRow): string {
  return `${c.code}: ${pct(c.percent)} por ${c.charges} ${c.charges === 1 ? 'cobrança' : 'cobranças'}, ${BILLING[c.billing]}, ${c.expiresAt ? `válido até ${dayOf(c.expiresAt)}` : 'sem validade'}`;
}

function row(c: CouponListing): string {
  const uses = c.maxRedemptions === null ? `${c.redemptions}` : `${c.redemptions}/${c.maxRedemptions}`;
  return [c.code, pct(c.percent), `${c.charges}x`, BILLING[c.billing], dayOf(c.expiresAt), `${uses} usos`, c.isActive ? 'ativo' : 'desativado'].join('\t');
}

/** A number option, NaN when given but not a number (couponInputProblems names it). */
const num = (v: string | undefined) => (v === undefined ? undefined : v.trim() === '' ? NaN : Number(v.replace(',', '.')));

async function run(knex: Knex, argv: string[]): Promise<string> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      code: { type: 'string' },
      percent: { type: 'string' },
      charges: { type: 'string' },
      annual: { type: 'boolean', default: false },
      any: { type: 'boolean', default: false },
      expires: { type: 'string' },
      'max-redemptions': { type: 'string' },
    },
  });
  const [command] = positionals;
  if (command === 'list') {
    const all = await listCoupons(knex);
    return all.length ? all.map(row).join('\n') : 'Nenhum cupom.';
  }
  if (command === 'disable') {
    if (!values.code) throw new CouponInputError('Informe --code.');
    return `Cupom desativado: ${(await disableCoupon(knex, values.code)).code}`;
  }
  if (command === 'create') {
    if (values.annual && values.any) throw new CouponInputError('Use --annual ou --any, não os dois.');
    const missing = (['code', 'percent', 'charges'] as const).filter((k) => values[k] === undefined);
    if (missing.length) throw new CouponInputError(`Informe ${missing.map((k) => `--${k}`).join(', ')}.`);
    const coupon = await createCoupon(knex, {
      code: values.code as string,
      percent: num(values.percent) as number,
      charges: num(values.charges) as number,
      billing: values.annual ? 'annual' : values.any ? 'any' : 'monthly',
      expires: values.expires ?? null,
      maxRedemptions: num(values['max-redemptions']) ?? null,
    });
    return `Cupom criado: ${describe(coupon)}`;
  }
  throw new CouponInputError(USAGE);
}

async function main(): Promise<void> {
  let knex: Knex | undefined;
  try {
    knex = createKnex(databaseUrl(), { pool: { max: 1 } });
    console.log(await run(knex, process.argv.slice(2)));
  } catch (err) {
    const known = err instanceof CouponInputError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    console.error(known ? (err as Error).message : err);
    process.exitCode = known ? 2 : 1;
  } finally {
    await knex?.destroy();
  }
}

void main();
