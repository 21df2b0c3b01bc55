// The zod schemas of the client and openapi/petstore.yaml say the same thing:
// every field, type, format, bound, enum value, default and required list.
// The schemas compared are the shared ones of src/api/schemas.ts and those
// every command declares with the operations it calls (its http.ts, named by
// its line in src/commands/registry.ts), so a new command's schemas are
// checked with no change here. Both sides are read, not copied: the zod
// schemas through zod's own JSON Schema conversion (z.toJSONSchema), the
// document through @readme/openapi-parser, then reduced to their validation
// keywords and compared whole. Where the client departs from the document on
// purpose, the test makes that change to the document's side, by name and
// with its reason, so any other change on either side fails here.
import * as z from 'zod/mini';
import { describe, expect, test } from 'vitest';
import {
  INT64_MAX,
  INT64_MIN,
  Int64,
  type OperationSchemas,
  PetStatus,
  ResponseInt32,
  ResponseInt64,
  responseInt32,
  ServiceErrorBody,
} from '../src/api/schemas.js';
import { COMMANDS } from '../src/commands/registry.js';
import { JsonNumber } from '../src/json.js';
import { type Document, loadDocument, operation, parameter, type Schema } from './support/openapi.js';

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

/** Whether a custom schema is the JsonNumber form of an integer union (ResponseInt64, responseInt32: described by its union): it takes whole numbers spelled `1.0`, not `0.5`. */
function isWrittenInteger(schema: Parameters<typeof z.safeParse>[0]): boolean {
  const whole = [0n, 1n, -1n, 2n ** 31n - 1n, -(2n ** 31n)].some((v) => z.safeParse(schema, new JsonNumber(`${v}.0`)).success);
  return whole && !z.safeParse(schema, new JsonNumber('0.5')).success;
}

/**
 * The bounds of a union made by responseInt32 (a safe integer, a bigint and a JsonNumber, each bounded alike within int32), read
 * from its bigint's checks and confirmed on each form at and beyond each bound; undefined for any other schema.
 */
function int32Bounds(schema: Parameters<typeof z.safeParse>[0]): { minimum: bigint; maximum: bigint } | undefined {
  const def = schema._zod.def as { type: string; options?: z.ZodMiniType[] };
  if (def.type !== 'union' || def.options?.length !== 3) return undefined;
  const [number, bigint, written] = def.options;
  if (number!._zod.def.type !== 'number' || bigint!._zod.def.type !== 'bigint' || written!._zod.def.type !== 'custom') return undefined;
  const { min, max } = bigintBounds((bigint!._zod.def as { checks?: [] }).checks ?? []);
  if (min === undefined || max === undefined || min < -(2n ** 31n) || max > 2n ** 31n - 1n) return undefined;
  for (const [value, accepted] of [
    [min - 1n, false],
    [min, true],
    [max, true],
    [max + 1n, false],
  ] as const) {
    const forms = [Number(value), value, new JsonNumber(`${value}.0`)];
    expect(
      forms.map((form) => z.safeParse(schema, form).success),
      `${value}`,
    ).toEqual([accepted, accepted, accepted]);
  }
  expect(fromZod(number!)).toEqual({ type: 'integer', minimum: Number(min), maximum: Number(max) });
  return { minimum: min, maximum: max };
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
        } else if (int32Bounds(zodSchema) !== undefined) {
          // The same three forms, each bounded alike within int32 (responseInt32): JSON Schema's int32, with any narrower bound.
          const { minimum, maximum } = int32Bounds(zodSchema)!;
          for (const key of Object.keys(jsonSchema)) delete jsonSchema[key];
          Object.assign(jsonSchema, { type: 'integer', format: 'int32' });
          if (minimum > -(2n ** 31n)) jsonSchema.minimum = Number(minimum);
          if (maximum < 2n ** 31n - 1n) jsonSchema.maximum = Number(maximum);
        } else if (def.type === 'custom' && isWrittenInteger(zodSchema)) {
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

  test('ResponseInt32 and ResponseInt64: integer with format int32 and int64', () => {
    expect(fromZod(ResponseInt32)).toEqual({ type: 'integer', format: 'int32' });
    // A bounded int32 keeps its bounds in JSON Schema's words, from the same checks that run (a quantity of at least 1).
    expect(fromZod(responseInt32({ minimum: 1n }))).toEqual({ type: 'integer', format: 'int32', minimum: 1 });
    expect(fromZod(responseInt32({ minimum: -5n, maximum: 5n }))).toEqual({ type: 'integer', format: 'int32', minimum: -5, maximum: 5 });
    expect(() => responseInt32({ maximum: 2n ** 31n })).toThrow('int32 bounds -2147483648 to 2147483648');
    expect(fromZod(ResponseInt64)).toEqual({ type: 'integer', format: 'int64' });
  });

  test('Error (ServiceErrorBody): the same fields, all required; status read as any JSON number', () => {
    const expected = component('Error');
    // The client reads the status field as any JSON number (an integer arrives as a bigint, exact),
    // so that an error with an odd status is still reported; the document says integer.
    expect(expected.properties.status).toEqual({ type: 'integer' });
    expected.properties.status = { type: ['number', 'integer'] };
    expect(fromZod(ServiceErrorBody)).toEqual(expected);
  });
});

type Part = 'query' | 'body' | 'answer';

/** The operation with this operationId, or undefined when the document lacks it. */
function operationOf(document: Document, operationId: string) {
  try {
    return operation(document, operationId);
  } catch {
    return undefined;
  }
}

/** One part of a documented operation, as JSON Schema, normalised: its query parameters as one object, its JSON body, its first 2xx answer. */
function documented(op: NonNullable<ReturnType<typeof operationOf>>, part: Part): Json | undefined {
  if (part === 'query') {
    const params = (op.parameters ?? []).map((p) => p as { name: string; in: string; required?: boolean; schema: Schema });
    const query = params.filter((p) => p.in === 'query');
    const required = query.filter((p) => p.required).map((p) => p.name);
    // A query whose parameters are all optional has no `required` list, as zod's object of optional keys has none.
    return normalise({
      type: 'object',
      properties: Object.fromEntries(query.map((p) => [p.name, p.schema])),
      ...(required.length > 0 ? { required } : {}),
      additionalProperties: false,
    });
  }
  const content = (body: unknown) =>
    (body as { content?: Record<string, { schema?: Schema }> } | undefined)?.content?.['application/json']?.schema;
  if (part === 'body') return normalise(content(op.requestBody));
  const success = Object.keys(op.responses ?? {}).find((status) => /^2\d\d$/.test(status));
  return success === undefined ? undefined : normalise(content(op.responses![success]));
}

/** A Pet the client reads: a status outside PetStatus is shown as sent rather than refused (the service may add values). */
const readsAnyStatus = (pet: Json) => {
  pet.properties.status = { type: 'string' };
};

/** Where a command's schema departs from the document on purpose, by operation and part, with the reason. */
const DEPARTURES: Record<string, (expected: Json) => void> = {
  // The client sends only the fields the interface names (a typo is an error, not a silently ignored field),
  // and refuses an empty name, which the interface neither allows nor forbids.
  'createPet body': (newPet) => {
    newPet.additionalProperties = false;
    newPet.properties.name.minLength = 1;
  },
  'createPet answer': readsAnyStatus,
  'getPet answer': readsAnyStatus,
  'listPets answer': (pets) => readsAnyStatus(pets.items),
};

/** Every operation a command of the registry declares, with the command's name. */
const declared: Array<[command: string, operationId: string, schemas: OperationSchemas]> = [];
for (const entry of COMMANDS)
  for (const schemas of (await entry.operations?.()) ?? []) declared.push([entry.name, schemas.operationId, schemas]);

describe("the commands' schemas agree with openapi/petstore.yaml (from the registry)", () => {
  test.each(declared)('petstore %s: %s', (command, operationId, schemas) => {
    const op = operationOf(doc, operationId);
    if (schemas.notInDocument !== undefined) {
      expect(op, `"petstore ${command}" says ${operationId} is not in openapi/petstore.yaml, but it is`).toBeUndefined();
      expect(schemas.notInDocument).toMatch(/^\S[^\n]*$/);
      return;
    }
    expect(op, `${operationId} of "petstore ${command}" is not in openapi/petstore.yaml (else say so: notInDocument)`).toBeDefined();
    for (const [name, schema] of Object.entries(schemas.path ?? {}))
      expect(fromZod(schema), `${operationId} path parameter ${name}`).toEqual(normalise(parameter(op!, name).schema));
    for (const part of ['query', 'body', 'answer'] as const) {
      const schema = schemas[part];
      if (!schema) continue;
      const expected = documented(op!, part);
      expect(expected, `openapi/petstore.yaml's ${operationId} has no ${part}`).toBeDefined();
      DEPARTURES[`${operationId} ${part}`]?.(expected!);
      expect(fromZod(schema), `${operationId} ${part}`).toEqual(expected);
    }
  });

  test("every operation of the document is called by a command that declares it, and every departure is one a command's schema makes", () => {
    const ids = Object.values(doc.paths ?? {}).flatMap((item) =>
      Object.values(item ?? {}).flatMap((op) => (typeof op === 'object' && op && 'operationId' in op ? [op.operationId as string] : [])),
    );
    const called = new Set(declared.filter(([, , s]) => s.notInDocument === undefined).map(([, id]) => id));
    expect([...called].sort()).toEqual([...new Set(ids)].sort());
    const parts = new Set(
      declared.flatMap(([, id, s]) => (['query', 'body', 'answer'] as const).filter((p) => s[p]).map((p) => `${id} ${p}`)),
    );
    expect(Object.keys(DEPARTURES).filter((key) => !parts.has(key))).toEqual([]);
  });
});
