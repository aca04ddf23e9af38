import { expect } from 'chai';
import { nulPaths } from '../../api/http/validate';

/** The NUL check every request input goes through (api/http/validate.ts): where, not just whether. */
describe('http: nulPaths names every place of an input that holds a NUL', () => {
  it('finds nothing in a clean input, however large or deep', () => {
    const big = { items: Array.from({ length: 20_000 }, (_, i) => ({ name: `item ${i}`, tags: ['a', ['b', { c: 'd' }]], n: i, ok: true, none: null })) };
    expect(nulPaths(big)).to.deep.equal([]);
    let deep: unknown = 'fundo';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(nulPaths(deep)).to.deep.equal([]);
    expect(nulPaths(undefined)).to.deep.equal([]);
    expect(nulPaths(42)).to.deep.equal([]);
  });

  it('names a NUL in a value, in a key and inside arrays of arrays, in zod’s dotted form', () => {
    const input = { text: 'a\u0000b', ok: 'limpo', ['chave\u0000']: 'x', list: [['x', { deep: ['y', 'z\u0000'] }]] };
    expect(nulPaths(input).sort()).to.deep.equal(['chave\u0000', 'list.0.1.deep.1', 'text']);
    expect(nulPaths('só\u0000texto')).to.deep.equal(['body']);
    let deep: unknown = 'fundo\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(nulPaths(deep)).to.have.length(1);
  });

  it('names at most 20 places', () => {
    expect(nulPaths(Array.from({ length: 50 }, () => '\u0000'))).to.have.length(20);
  });
});
