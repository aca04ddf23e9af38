import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { testDatabase } from '../helpers/db';
import { unique } from '../helpers/factories';

const root = fileURLToPath(new URL('../..', import.meta.url));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** `npm run coupon -- ...args` as the operator types it (the package.json script), against the run's test database. */
function coupon(databaseUrl: string, ...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile('npm', ['run', '--silent', 'coupon', '--', ...args], { cwd: root, env: { ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'balcao-coupon-')) }, timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout: stdout.trim(), stderr: stderr.trim() });
    });
  });
}

describe('billing: npm run coupon (the operator’s command, against a real database)', function () {
  this.timeout(120_000);
  let url: string;
  let knex: Knex;

  before(async () => {
    ({ url, knex } = await testDatabase());
  });

  const code = () => unique('cli').replace(/[^A-Za-z0-9]/g, '').slice(-20).toUpperCase();

  it('creates a coupon as the issue writes it: 20% for 3 charges, annual, valid through the day given (São Paulo)', async () => {
    const c = code();
    const run = await coupon(url, 'create', '--code', c.toLowerCase(), '--percent', '20', '--charges', '3', '--annual', '--expires', '2099-12-31');
    expect(run, run.stderr).to.deep.include({ code: 0 });
    expect(run.stdout).to.equal(`Cupom criado: ${c}: 20% por 3 cobranças, anual, válido até 31/12/2099`);
    const row = await knex('coupons').where({ code: c }).first();
    expect(row).to.deep.include({ percent: 20, charges: 3, billing: 'annual', isActive: true, maxRedemptions: null });
    expect(new Date(row.expiresAt).toISOString()).to.equal('2100-01-01T03:00:00.000Z');
  });

  it('defaults to monthly billing without expiry; --any and --max-redemptions are kept', async () => {
    const monthly = code();
    expect((await coupon(url, 'create', '--code', monthly, '--percent', '12,5', '--charges', '1')).code).to.equal(0);
    expect(await knex('coupons').where({ code: monthly }).first('billing', 'percent', 'expiresAt')).to.deep.equal({ billing: 'monthly', percent: 12.5, expiresAt: null });
    const any = code();
    expect((await coupon(url, 'create', '--code', any, '--percent', '50', '--charges', '2', '--any', '--max-redemptions', '10')).code).to.equal(0);
    expect(await knex('coupons').where({ code: any }).first('billing', 'maxRedemptions')).to.deep.equal({ billing: 'any', maxRedemptions: 10 });
  });

  it('refuses a bad input with every problem at once and exit code 2, writing nothing', async () => {
    const run = await coupon(url, 'create', '--code', 'x', '--percent', '120', '--charges', '0', '--expires', '2020-01-01');
    expect(run.code).to.equal(2);
    expect(run.stderr.split('\n')).to.deep.equal([
      '--code: de 3 a 40 letras, números, - ou _.',
      '--percent: de 0,01 a 100 (até duas casas decimais).',
      '--charges: um número inteiro de 1 a 120.',
      '--expires: a data já passou.',
    ]);
    expect((await coupon(url, 'create', '--code', code())).stderr).to.equal('Informe --percent, --charges.');
    expect((await coupon(url, 'create', '--code', code(), '--percent', '10', '--charges', '1', '--annual', '--any')).code).to.equal(2);
    expect((await coupon(url, 'create', '--bogus')).code).to.equal(2);
    expect((await coupon(url, 'frobnicate')).stderr).to.match(/^Uso:/);
  });

  it('refuses a second coupon with the same code in any case', async () => {
    const c = code();
    expect((await coupon(url, 'create', '--code', c, '--percent', '10', '--charges', '1')).code).to.equal(0);
    const again = await coupon(url, 'create', '--code', c.toLowerCase(), '--percent', '10', '--charges', '1');
    expect(again).to.deep.include({ code: 2, stderr: `Já existe um cupom ${c}.` });
  });

  it('lists coupons with their uses, and disables one', async () => {
    const c = code();
    expect((await coupon(url, 'create', '--code', c, '--percent', '20', '--charges', '3', '--max-redemptions', '5')).code).to.equal(0);
    const [ws] = await knex('workspaces').insert({ name: unique('Empresa'), customerIdentifier: unique('ci') }).returning('id');
    const coupon0 = await knex('coupons').where({ code: c }).first('id');
    await knex('couponRedemptions').insert({ couponId: coupon0.id, workspaceId: ws.id, chargesLeft: 2 });
    const list = await coupon(url, 'list');
    expect(list.code).to.equal(0);
    expect(list.stdout.split('\n')).to.include([c, '20%', '3x', 'mensal', 'sem validade', '1/5 usos', 'ativo'].join('\t'));
    const disabled = await coupon(url, 'disable', '--code', c.toLowerCase());
    expect(disabled).to.deep.include({ code: 0, stdout: `Cupom desativado: ${c}` });
    expect((await knex('coupons').where({ code: c }).first('isActive')).isActive).to.equal(false);
    expect((await coupon(url, 'list')).stdout.split('\n').find((l) => l.startsWith(`${c}\t`))).to.match(/\tdesativado$/);
    expect(await coupon(url, 'disable', '--code', 'NAOEXISTE')).to.deep.include({ code: 2, stderr: 'Cupom NAOEXISTE não encontrado.' });
  });
});
