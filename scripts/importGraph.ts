// The api's area folders as a graph of runtime imports (`import type` left out): prints each loop of areas
// that import each other (strongly connected components of more than one area) with the imports that tie it.
// Usage: npx tsx scripts/importGraph.ts [root=api]. test/scripts/importGraph.test.ts holds api/ to its limit.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

/** Runtime module specifiers of a file: imports and re-exports that are not wholly `type`. */
export function runtimeImports(source: string): string[] {
  const found: string[] = [];
  const re = /^\s*(import|export)\s+(type\s+)?([^'";]*?)\s*from\s*['"]([^'"]+)['"]/gms;
  for (const m of source.matchAll(re)) {
    if (m[2]) continue;
    const names = m[3];
    const braces = /\{([^}]*)\}/.exec(names);
    const onlyTypes = braces && !names.replace(braces[0], '').replace(/[\s,]/g, '') &&
      braces[1].split(',').map((n) => n.trim()).filter(Boolean).every((n) => n.startsWith('type '));
    if (!onlyTypes) found.push(m[4]);
  }
  for (const m of source.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm)) found.push(m[1]);
  return found;
}

export interface AreaGraph {
  areas: string[];
  /** from area → to area → the files of `from` that import it. */
  edges: Map<string, Map<string, string[]>>;
  /** Loops of areas that import each other at run time (strongly connected components of 2 or more), largest first. */
  loops: string[][];
}

/** The area folders of `root` (api/ by default) as a graph of run-time imports, with its loops. */
export function areaGraph(rootDir = 'api'): AreaGraph {
  const root = resolve(rootDir);
  const areaOf = (file: string): string => {
    const rel = relative(root, file).split('/');
    return rel.length > 1 ? rel[0] : rel[0].replace(/\.tsx?$/, '');
  };
  const edges = new Map<string, Map<string, string[]>>();
  for (const file of files(root)) {
    const from = areaOf(file);
    for (const spec of runtimeImports(readFileSync(file, 'utf8'))) {
      if (!spec.startsWith('.')) continue;
      const target = resolve(dirname(file), spec);
      if (!target.startsWith(root + '/')) continue;
      const to = areaOf(target);
      if (to === from) continue;
      const byTarget = edges.get(from) ?? new Map<string, string[]>();
      byTarget.set(to, [...(byTarget.get(to) ?? []), relative(root, file)]);
      edges.set(from, byTarget);
    }
  }

  // Tarjan's strongly connected components.
  const areas = [...new Set([...edges.keys(), ...[...edges.values()].flatMap((m) => [...m.keys()])])].sort();
  let counter = 0;
  const index = new Map<string, number>(), low = new Map<string, number>(), stack: string[] = [], onStack = new Set<string>();
  const components: string[][] = [];
  function visit(v: string): void {
    index.set(v, counter); low.set(v, counter); counter++; stack.push(v); onStack.add(v);
    for (const w of edges.get(v)?.keys() ?? []) {
      if (!index.has(w)) { visit(w); low.set(v, Math.min(low.get(v)!, low.get(w)!)); }
      else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do { w = stack.pop()!; onStack.delete(w); component.push(w); } while (w !== v);
      components.push(component.sort());
    }
  }
  for (const a of areas) if (!index.has(a)) visit(a);

  const loops = components.filter((c) => c.length > 1).sort((a, b) => b.length - a.length);
  return { areas, edges, loops };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { areas, edges, loops } = areaGraph(process.argv[2] ?? 'api');
  console.log(`${areas.length} areas, ${[...edges.values()].reduce((n, m) => n + m.size, 0)} area-to-area imports; largest runtime loop: ${loops[0]?.length ?? 1} areas`);
  for (const loop of loops) {
    console.log(`\nloop of ${loop.length}: ${loop.join(', ')}`);
    for (const from of loop) for (const [to, via] of edges.get(from) ?? []) {
      if (loop.includes(to)) console.log(`  ${from} -> ${to}: ${[...new Set(via)].join(', ')}`);
    }
  }
}
