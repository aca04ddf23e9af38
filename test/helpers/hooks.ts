import { closeTestDatabase } from './db';
import { stopTestTemporal } from './temporal';

process.env.ARGON2_FAST ??= '1';

/** Mocha root hooks: shared services of a run are started lazily by the helpers and stopped here. */
export const mochaHooks = {
  async afterAll() {
    await closeTestDatabase();
    await stopTestTemporal();
  },
};
