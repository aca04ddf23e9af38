import { closeTestDatabase } from './db';
import { stopTestTemporal } from './temporal';
import { setHashingCostForTests } from '../../api/auth/passwords';

// Test processes hash with a cheap cost (the product always uses OWASP's, api/auth/passwords.ts).
setHashingCostForTests({ memoryCost: 1024, timeCost: 1, parallelism: 1 });

/** Mocha root hooks: shared services of a run are started lazily by the helpers and stopped here. */
export const mochaHooks = {
  async afterAll() {
    await closeTestDatabase();
    await stopTestTemporal();
  },
};
