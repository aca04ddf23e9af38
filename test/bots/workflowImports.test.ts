import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { expect } from 'chai';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** Relative modules a file loads at run time: `import type`, `import { type X }` and `export type` are erased and not counted. */
function runtimeImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, false, ts.ScriptKind.TS);
  const found: string[] = [];
  for (const node of source.statements) {
    let spec: ts.Expression | undefined;
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      const typeOnly =
        clause?.isTypeOnly ||
        (clause && !clause.name && clause.namedBindings && ts.isNamedImports(clause.namedBindings) && clause.namedBindings.elements.length > 0 && clause.namedBindings.elements.every((e) => e.isTypeOnly));
      if (!typeOnly) spec = node.moduleSpecifier;
    } else if (ts.isExportDeclaration(node) && !node.isTypeOnly) spec = node.moduleSpecifier;
    if (spec && ts.isStringLiteral(spec) && spec.text.startsWith('.')) found.push(spec.text);
  }
  return found;
}

function resolve(from: string, spec: string): string {
  const base = path.resolve(path.dirname(from), spec);
  for (const candidate of [`${base}.ts`, path.join(base, 'index.ts'), base]) {
    try {
      readFileSync(candidate);
      return candidate;
    } catch {
      // next candidate
    }
  }
  throw new Error(`cannot resolve ${spec} from ${from}`);
}

/** Every file the module loads at run time, itself included. */
function closure(entry: string): string[] {
  const seen = new Set<string>();
  const todo = [entry];
  while (todo.length) {
    const file = todo.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const spec of runtimeImports(file)) todo.push(resolve(file, spec));
  }
  return [...seen].map((f) => path.relative(ROOT, f));
}

describe('bot workflow imports (DESIGN §5)', () => {
  it('botSession loads nothing from api/ or activities/ at run time: its pure reply logic lives under workflows/bots/', () => {
    const files = closure(path.join(ROOT, 'workflows/bots/botSession.ts'));
    expect(files.filter((f) => !f.startsWith(`workflows${path.sep}`))).to.deep.equal([]);
    expect(files).to.include(path.join('workflows', 'bots', 'replies.ts'));
  });
});
