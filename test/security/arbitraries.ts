import fc from 'fast-check';
import { z } from 'zod';

/** Inputs that stress parsers and SQL: injections, pg_sleep, NUL, lone surrogates, huge numbers, paths. */
export const SQL_PAYLOADS = [
  "' OR '1'='1",
  "' OR 1=1 --",
  "'; SELECT pg_sleep(10); --",
  '1; SELECT pg_sleep(10)',
  "') OR pg_sleep(10) IS NULL --",
  "x' || (SELECT pg_sleep(10)) || '",
  "1' AND (SELECT 1 FROM pg_sleep(10))='1",
  '1 UNION SELECT id, name, email FROM operators --',
  '"; DROP TABLE labels; --',
  "%' OR workspace_id <> 0 OR name ILIKE '%",
  '%',
  '_',
  '\\',
  '$1',
  '?',
  '::text',
] as const;

export const NASTY = [
  ...SQL_PAYLOADS,
  '\u0000',
  'a\u0000b',
  '\ud800',
  '%00',
  '../../etc/passwd',
  '1e309',
  '-0',
  '9'.repeat(40),
  '<img src=x onerror=alert(1)>',
  ' ',
  '{"__proto__":{"admin":true}}',
] as const;

export const nastyString = fc.constantFrom(...NASTY);

const smallId = fc.integer({ min: 1, max: 60 });

/** Text that mixes printable, binary, nasty constants and long repeats. */
export const junkText = fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 40 }), { weight: 3, arbitrary: nastyString }, fc.string({ maxLength: 8 }).map((s) => s.repeat(400)));

export const junkValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: junkText },
  smallId,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.jsonValue({ maxDepth: 2 }),
  fc.array(fc.oneof(smallId, junkText), { maxLength: 5 }),
);

type JsonSchema = Record<string, any>;

function stringArb(s: JsonSchema): fc.Arbitrary<string> {
  const plain = fc.string({ minLength: Math.min(s.minLength ?? 0, 20), maxLength: Math.max(Math.min(s.maxLength ?? 40, 60), Math.min(s.minLength ?? 0, 20)) });
  if (s.format === 'email') return fc.oneof(fc.emailAddress(), plain);
  if (typeof s.pattern === 'string') {
    try {
      return fc.oneof(fc.stringMatching(new RegExp(s.pattern)), plain);
    } catch {
      return plain;
    }
  }
  return plain;
}

/** An arbitrary for the values a JSON Schema (draft 2020-12, as zod's toJSONSchema writes it) describes. */
export function fromJsonSchema(s: JsonSchema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!s || typeof s !== 'object' || depth > 6 || Object.keys(s).length === 0) return junkValue;
  if ('const' in s) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
  const alternatives = s.anyOf ?? s.oneOf;
  if (Array.isArray(alternatives) && alternatives.length) return fc.oneof(...alternatives.map((x: JsonSchema) => fromJsonSchema(x, depth + 1)));
  if (Array.isArray(s.allOf) && s.allOf.length) return fromJsonSchema(s.allOf[0], depth + 1);
  if (Array.isArray(s.type)) return fc.oneof(...s.type.map((t: string) => fromJsonSchema({ ...s, type: t }, depth + 1)));
  switch (s.type) {
    case 'string':
      return stringArb(s);
    case 'integer': {
      const min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : -1_000_000);
      const max = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - 1 : 1_000_000);
      const lo = Math.max(min, Number.MIN_SAFE_INTEGER);
      const hi = Math.min(max, Number.MAX_SAFE_INTEGER);
      return fc.oneof(fc.integer({ min: Math.max(lo, -(2 ** 31)), max: Math.min(hi, 2 ** 31 - 1) }), fc.integer({ min: Math.max(lo, 1), max: Math.max(Math.min(hi, 60), Math.max(lo, 1)) }));
    }
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true, min: s.minimum, max: s.maximum });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(fromJsonSchema(s.items, depth + 1), { minLength: Math.min(s.minItems ?? 0, 3), maxLength: Math.max(Math.min(s.maxItems ?? 4, 4), Math.min(s.minItems ?? 0, 3)) });
    case 'object': {
      const props: Record<string, JsonSchema> = s.properties ?? {};
      if (!Object.keys(props).length) return fc.dictionary(fc.string({ maxLength: 8 }), junkValue, { maxKeys: 3 });
      const fields = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, fromJsonSchema(v, depth + 1)]));
      return fc.record(fields, { requiredKeys: (s.required ?? []).filter((k: string) => k in fields) });
    }
    default:
      return junkValue;
  }
}

/** Values shaped by a zod schema (its input side), the way the UI form would send them. */
export function fromZod(schema: z.ZodType): fc.Arbitrary<unknown> {
  return fromJsonSchema(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema);
}

/** A valid body with one field replaced by a nasty value, or with an extra unknown field. */
export function mutated(valid: Record<string, unknown>): fc.Arbitrary<Record<string, unknown>> {
  const keys = Object.keys(valid);
  const replace = keys.length ? fc.tuple(fc.constantFrom(...keys), junkValue).map(([k, v]) => ({ ...valid, [k]: v })) : fc.constant(valid);
  const extra = fc.tuple(fc.oneof(fc.constantFrom('workspaceId', 'operatorId', 'accessLevel', 'id', '__proto__', 'constructor'), fc.string({ maxLength: 10 })), junkValue).map(([k, v]) => ({ ...valid, [k]: v }));
  return fc.oneof({ weight: 3, arbitrary: replace }, extra);
}

/** Where a string sits in a JSON value: as a value (`path` ends at it) or as an object key. */
export interface StringSpot {
  path: Array<string | number>;
  kind: 'value' | 'key';
}

/** Every string in a JSON value, values and object keys alike, in document order. */
export function stringSpots(value: unknown, path: Array<string | number> = []): StringSpot[] {
  if (typeof value === 'string') return [{ path, kind: 'value' }];
  if (Array.isArray(value)) return value.flatMap((v, i) => stringSpots(v, [...path, i]));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => [{ path: [...path, k], kind: 'key' as const }, ...stringSpots(v, [...path, k])]);
  }
  return [];
}

/**
 * A copy of `value` with a NUL put into the string at `spot` (PostgreSQL text and jsonb cannot hold one:
 * the widget's and the composer's Delta inserts, deep in the body, answered 500 before issue 10 item 10).
 */
export function withNulAt(value: unknown, spot: StringSpot, at = 0): unknown {
  const copy = structuredClone(value) as Record<string | number, unknown>;
  const parentPath = spot.path.slice(0, -1);
  const last = spot.path[spot.path.length - 1];
  if (last === undefined) return typeof value === 'string' ? `${value.slice(0, at)}\u0000${value.slice(at)}` : value;
  let parent: Record<string | number, unknown> = copy;
  for (const k of parentPath) parent = parent[k] as Record<string | number, unknown>;
  if (spot.kind === 'key') {
    const key = String(last);
    const renamed = `${key.slice(0, at)}\u0000${key.slice(at)}`;
    const entries = Object.entries(parent).map(([k, v]): [string, unknown] => [k === key ? renamed : k, v]);
    for (const k of Object.keys(parent)) delete parent[k];
    Object.assign(parent, Object.fromEntries(entries));
  } else {
    const s = String(parent[last]);
    parent[last] = `${s.slice(0, at)}\u0000${s.slice(at)}`;
  }
  return copy;
}

/** `base` with a NUL inside one of its strings, anywhere in the tree; a body without strings gets a NUL field. */
export function withNul(base: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc.tuple(base, fc.nat(), fc.nat({ max: 8 })).map(([value, pick, at]) => {
    const spots = stringSpots(value);
    if (!spots.length) return value && typeof value === 'object' && !Array.isArray(value) ? { ...value, ['nul\u0000']: 'a\u0000b' } : 'a\u0000b';
    const spot = spots[pick % spots.length];
    return withNulAt(value, spot, at);
  });
}

/**
 * react-admin `filter` values of shapes no filter has: nested lists and objects (`{"isActive":[[true,false]]}`
 * reached SQL and answered 500), and NUL inside an otherwise fine value.
 */
export const ODD_FILTER_VALUES: readonly unknown[] = [[[true, false]], [[1]], [['public'], 'private'], { not: true }, [{ a: 1 }], [null, [1]], 'a\u0000b', ['x', 'y\u0000']];

/**
 * Request paths whose percent-encoding does not decode (a lone `%`, bad hex, bytes that are not UTF-8),
 * in and outside /api: `GET /%ff` answered 500 from the UI's static serving.
 */
export const MALFORMED_PATHS = ['/%ff', '/%', '/%zz', '/%E0%A4%A', '/%c3', '/assets/%ff.js', '/inbox/%c3%28', '/settings/%ed%a0%80', '/%00', '/api/%ff', '/api/label/%ff', '/widget.js%ff'] as const;

/** Arbitrary byte sequences, percent-encoded into one path segment: mostly invalid UTF-8. */
export const percentEncodedJunk: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom('', 'assets/', 'inbox/', 'api/', 'user/'), fc.uint8Array({ minLength: 1, maxLength: 6 }), fc.constantFrom('', '.js', '.css', '%', '%z'))
  .map(([prefix, bytes, tail]) => `/${prefix}${[...bytes].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('')}${tail}`);

export type FuzzBody = { kind: 'json'; value: unknown } | { kind: 'raw'; value: string };

/** Everything a JSON endpoint gets: schema-shaped, mutated valid bodies, arbitrary JSON and broken text. */
export function bodies(schema: z.ZodType | undefined, valid: Record<string, unknown> | undefined): fc.Arbitrary<FuzzBody> {
  const json = (a: fc.Arbitrary<unknown>) => a.map((value): FuzzBody => ({ kind: 'json', value }));
  const arms: fc.WeightedArbitrary<FuzzBody>[] = [
    { weight: 2, arbitrary: json(fc.jsonValue({ maxDepth: 3 })) },
    { weight: 1, arbitrary: fc.oneof(junkText, fc.constantFrom('{', '{"a":', '[', 'null', '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{}}}')).map((value): FuzzBody => ({ kind: 'raw', value })) },
  ];
  if (schema) arms.push({ weight: 4, arbitrary: json(fromZod(schema)) }, { weight: 2, arbitrary: json(withNul(fromZod(schema))) });
  if (valid) arms.push({ weight: 4, arbitrary: json(mutated(valid)) }, { weight: 3, arbitrary: json(withNul(fc.constant(valid))) });
  return fc.oneof(...arms);
}
