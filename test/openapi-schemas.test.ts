// The zod schemas of src/api/schemas.ts and src/commands/list/http.ts (the
// query of listPets) and openapi/petstore.yaml say the same thing: every field, type, format, bound, enum value, default and required
// list. Both sides are read, not copied: the zod schemas through zod's own
// JSON Schema conversion (z.toJSONSchema), the document through
// @readme/openapi-parser, then reduced to their validation keywords and
// compared whole. Where the client departs from the document on purpose, the
// test makes that change to the document's side, by name and with its reason,
// so any other change on either side fails here.
import * as z from 'zod/mini';
import { describe, expect, test } from 'vitest';
import { INT64_MAX, INT64_MIN, Int64, NewPet, Pet, Pets, PetStatus, ResponseInt64, ServiceErrorBody } from '../src/api/schemas.js';
import { Limit, ListPetsQuery } from '../src/commands/list/http.js';
import { loadDocument, operation, parameter, type Schema } from './support/openapi.js';

// biome-ignore lint/suspicious/noExplicitAny: JSON Schema documents of any shape, walked by key
type Json = { [key: string]: any };

const doc = await loadDocument();

/** Words that describe rather than constrain, and extensions; dropped from both sides. */
const ANNOTATIONS = new Set(['$schema', 'description', 'title', 'summary', 'example', 'examples']);

/**
 * A JSON Schema reduced to what it accepts: annotations and `x-` extensions
 * dropped, `required` sorted (a set), and an open `additionalProperties`
 * ({} or true, which is also what leaving it out means) dropped. Every other
 * keyword is kept, so a new constraint on either side shows as a difference.
 */
function normalise(schema: unknown): Json {
  if (Array.isArray(schema)) return schema.map(normalise);
  if (schema === null || typeof schema !== 'object') return schema as Json;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (ANNOTATIONS.has(key) || key.startsWith('x-')) continue;
    if (key === 'additionalProperties' && (value === true || (typeof value === 'object' && Object.keys(value).length === 0))) continue;
    if (key === 'required') out[key] = [...(value as string[])].sort();
    else if (key === 'properties') out[key] = Object.fromEntries(Object.entries(value as Json).map(([name, s]) => [name, normalise(s)]));
    else if (key === 'enum' || key === 'default') out[key] = value;
    else out[key] = normalise(value);
  }
  return out;
}

/** The smallest and largest value a zod bigint accepts, from its checks; throws on a check it cannot describe. */
function bigintBounds(checks: Array<{ _zod: { def: { check: string; value: bigint; inclusive: boolean } } }>) {
  let [min, max]: [bigint | undefined, bigint | undefined] = [undefined, undefined];
  for (const {
    _zod: { def },
  } of checks) {
    if (def.check === 'greater_than') min = def.inclusive ? def.value : def.value + 1n;
    else if (def.check === 'less_than') max = def.inclusive ? def.value : def.value - 1n;
    else throw new Error(`a bigint check this test cannot describe: ${def.check}`);
  }
  return { min, max };
}

/**
 * A zod schema as JSON Schema (what it accepts as input), normalised. zod has
 * no JSON Schema for bigint: an unbounded one becomes `{type: integer}`, one
 * bounded exactly to int64 `{type: integer, format: int64}`, any other keeps
 * its bounds (and so differs from every int64 of the document). Any other
 * type without a JSON Schema fails.
 */
function fromZod(schema: z.ZodMiniType): Json {
  return normalise(
    z.toJSONSchema(schema, {
      target: 'draft-2020-12',
      io: 'input',
      unrepresentable: 'any',
      override: ({ zodSchema, jsonSchema }) => {
        const def = zodSchema._zod.def as { type: string; checks?: []; options?: z.ZodMiniType[] };
        if (zodSchema === ResponseInt64) {
          // A number exact as a double, Int64, or a JsonNumber whose value is a whole number in range (`1.0`): JSON Schema's int64.
          const [safe, bigint, written] = def.options!;
          expect(fromZod(safe!)).toEqual({ type: 'integer', minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER });
          expect(fromZod(bigint!)).toEqual({ type: 'integer', format: 'int64' });
          expect(written!._zod.def.type).toBe('custom');
          for (const key of Object.keys(jsonSchema)) delete jsonSchema[key];
          Object.assign(jsonSchema, { type: 'integer', format: 'int64' });
        } else if (def.type === 'custom' && ResponseInt64._zod.def.options.includes(zodSchema as never)) {
          // Described by its union, above.
        } else if (def.type === 'bigint') {
          const { min, max } = bigintBounds(def.checks ?? []);
          if (min === undefined && max === undefined) Object.assign(jsonSchema, { type: 'integer' });
          else if (min === INT64_MIN && max === INT64_MAX) Object.assign(jsonSchema, { type: 'integer', format: 'int64' });
          else Object.assign(jsonSchema, { type: 'integer', 'bigint-bounds': [String(min), String(max)] });
        } else if (Object.keys(jsonSchema).length === 0 && def.type !== 'any' && def.type !== 'unknown') {
          throw new Error(`zod type "${def.type}" has no JSON Schema`);
        }
      },
    }),
  );
}

/** A component schema of the document, normalised (a fresh copy the test may change). */
const component = (name: string): Json => normalise(doc.components!.schemas![name]);

/** The query parameters of listPets as one object schema: each parameter a property, `required` as the document says. */
function listPetsQueryOfDocument(): Json {
  const params = operation(doc, 'listPets').parameters!.map((p) => p as { name: string; in: string; required?: boolean; schema: Schema });
  expect(params.every((p) => p.in === 'query')).toBe(true);
  return normalise({
    type: 'object',
    properties: Object.fromEntries(params.map((p) => [p.name, p.schema])),
    required: params.filter((p) => p.required).map((p) => p.name),
    additionalProperties: false,
  });
}

describe('src/api/schemas.ts agrees with openapi/petstore.yaml', () => {
  test('PetStatus: the same string enumeration', () => {
    expect(fromZod(PetStatus)).toEqual(component('PetStatus'));
  });

  test('Int64: the int64 of every id in the document (petId, id, categoryId)', () => {
    const int64 = fromZod(Int64);
    expect(int64).toEqual({ type: 'integer', format: 'int64' });
    expect(normalise(parameter(operation(doc, 'getPet'), 'petId').schema)).toEqual(int64);
    expect(component('Pet').properties.id).toEqual(int64);
    expect(component('Pet').properties.categoryId).toEqual(int64);
    expect(component('NewPet').properties.categoryId).toEqual(int64);
  });

  test("NewPet: the document's NewPet, stricter where the client checks what it sends", () => {
    const expected = component('NewPet');
    // The client sends only the fields the interface names (a typo is an error, not a silently ignored field)...
    expected.additionalProperties = false;
    // ...and refuses an empty name, which the interface neither allows nor forbids.
    expected.properties.name.minLength = 1;
    expect(fromZod(NewPet)).toEqual(expected);
  });

  test("Pet: the document's Pet, more lenient where the client reads what it is sent", () => {
    const expected = component('Pet');
    // A status outside PetStatus is shown as sent rather than refused (the service may add values).
    // Unknown fields are kept: the document leaves Pet open too, so both sides agree on that.
    expected.properties.status = { type: 'string' };
    expect(fromZod(Pet)).toEqual(expected);
    expect(fromZod(Pets)).toEqual({ ...component('Pets'), items: expected });
  });

  test('Error (ServiceErrorBody): the same fields, all required; status read as any JSON number', () => {
    const expected = component('Error');
    // The client reads the status field as any JSON number (an integer arrives as a bigint, exact),
    // so that an error with an odd status is still reported; the document says integer.
    expect(expected.properties.status).toEqual({ type: 'integer' });
    expected.properties.status = { type: ['number', 'integer'] };
    expect(fromZod(ServiceErrorBody)).toEqual(expected);
  });

  test("Limit: the bounds of the limit parameter; its default is the flag's (checked end to end)", () => {
    const { default: documented, ...bounds } = normalise(parameter(operation(doc, 'listPets'), 'limit').schema);
    // zod's Limit has no default: `--limit` defaults to 20, and test/e2e.test.ts checks that
    // `list` without --limit sends the document's default.
    expect(documented).toBe(20);
    expect(fromZod(Limit)).toEqual(bounds);
  });

  test('ListPetsQuery: the query parameters of listPets, limit optional with its default', () => {
    const expected = listPetsQueryOfDocument();
    expect(expected.required).toEqual([]);
    delete expected.required;
    expect(fromZod(ListPetsQuery)).toEqual(expected);
  });
});
