import { expect } from 'chai';
import { areaGraph, runtimeImports } from '../../scripts/importGraph';

/** docs/architecture.md "Floors of api/": the limit issue 26 set, held by the build. */
const LARGEST_LOOP = 5;

describe("api/'s areas import each other in no loop larger than five", () => {
  it('reads run-time imports only: `import type` and all-type braces are left out', () => {
    const source = [
      "import type { A } from './a';",
      "import { type B, type C } from './b';",
      "import { D, type E } from './d';",
      "import F from './f';",
      "export { G } from './g';",
      "export type { H } from './h';",
      "import './side-effect';",
    ].join('\n');
    expect(runtimeImports(source)).to.have.members(['./d', './f', './g', './side-effect']);
  });

  it(`the largest loop of areas has at most ${LARGEST_LOOP} areas`, () => {
    const { areas, loops } = areaGraph('api');
    expect(areas.length, 'the graph sees the areas of api/').to.be.above(20);
    const largest = loops[0] ?? [];
    expect(largest.length, `loop: ${largest.join(', ')} (npx tsx scripts/importGraph.ts api)`).to.be.at.most(LARGEST_LOOP);
  });

  it('the ground floor and the realtime broker (http, db, models, policy, realtime …) are in no loop at all', () => {
    const { loops } = areaGraph('api');
    const low = new Set(['http', 'db', 'models', 'policy', 'storage', 'mail', 'jobs', 'system', 'temporal', 'realtime']);
    for (const loop of loops) {
      const lowInLoop = loop.filter((a) => low.has(a));
      expect(lowInLoop, `loop ${loop.join(', ')}`).to.deep.equal([]);
    }
  });
});
