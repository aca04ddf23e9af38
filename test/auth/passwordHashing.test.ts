import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { hashPassword, OWASP_HASHING_COST, verifyPassword } from '../../api/auth/passwords';

const run = promisify(execFile);

/** The cost an argon2 PHC string records: `$argon2id$v=19$m=…,t=…,p=…$salt$hash`. */
function costOf(phc: string): { algorithm: string; m: number; t: number; p: number } {
  const m = /^\$(argon2(?:id|i|d))\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$/.exec(phc);
  if (!m) throw new Error(`not an argon2 PHC string: ${phc}`);
  return { algorithm: m[1]!, m: Number(m[2]), t: Number(m[3]), p: Number(m[4]) };
}

/** Source files of the product (everything the api, worker and scripts run), not the tests. */
function productSources(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const file = path.join(dir, name);
      if (statSync(file).isDirectory()) walk(file);
      else if (/\.(ts|tsx|js|mjs)$/.test(name)) out.push(file);
    }
  };
  for (const dir of ['api', 'activities', 'workflows', 'scripts']) walk(path.resolve(dir));
  return out;
}

describe('password hashing cost: OWASP’s argon2id in the product, a cheap one only where a test sets it', function () {
  this.timeout(60_000);

  it('a process without the test hook hashes with m=19456 KiB, t=2, p=1 even when ARGON2_FAST=1 is in its environment', async () => {
    const script = "const { hashPassword } = await import('./api/auth/passwords.ts'); process.stdout.write(await hashPassword('senha-do-produto'));";
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: path.resolve('.'),
      env: { ...process.env, ARGON2_FAST: '1', NODE_OPTIONS: '' },
    });
    expect(costOf(stdout)).to.deep.equal({ algorithm: 'argon2id', m: 19456, t: 2, p: 1 });
    expect(OWASP_HASHING_COST).to.deep.equal({ memoryCost: 19456, timeCost: 2, parallelism: 1 });
  });

  it('the test hook (test/helpers/hooks.ts) lowers the cost in test processes, and a cheap hash still verifies', async () => {
    const phc = await hashPassword('senha-de-teste');
    expect(costOf(phc)).to.deep.equal({ algorithm: 'argon2id', m: 1024, t: 1, p: 1 });
    expect(await verifyPassword(phc, 'senha-de-teste')).to.equal(true);
    expect(await verifyPassword(phc, 'outra')).to.equal(false);
  });

  it('no product source reads a switch for the cost or calls the test setter', () => {
    const offenders = productSources().filter((file) => /ARGON2_FAST|setHashingCostForTests\(/.test(readFileSync(file, 'utf8').replace(/export function setHashingCostForTests\(/, '')));
    expect(offenders.map((f) => path.relative(process.cwd(), f))).to.deep.equal([]);
  });
});
