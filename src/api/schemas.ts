/** zod/mini schemas of the interface objects (openapi/petstore.yaml); int64 is `bigint` (parse with `parseJson`; an answer's may be a `number`, parsed with `parseAnswerJson`). zod/mini loads far less (bench/RESULTS.md). */
import * as z from 'zod/mini';
// The English messages alone: zod/locales's index would bring every language into the bundle.
import en from 'zod/v4/locales/en.js';
import { INT64_MAX, INT64_MIN, PET_STATUSES } from '../interface-values.js';
import { isJsonObject, JsonNumber } from '../json.js';

z.config(en());

export { INT64_MAX, INT64_MIN } from '../interface-values.js';

const MISSING = 'required field missing';
const missingOr = (message: string) => (issue: { input?: unknown }) => (issue.input === undefined ? MISSING : message);

/** "integer, format int64", as a bigint. */
export const Int64 = z
  .bigint({ error: missingOr('must be an integer (int64)') })
  .check(z.gte(INT64_MIN, `must be at least ${INT64_MIN}`), z.lte(INT64_MAX, `must be at most ${INT64_MAX}`));

const NUMBER_PARTS = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/** A JSON number's exact value when whole and in int64 range (`1.0`, `1e2`, `-0`, `150e-1`); else undefined (`1.5`, `1e400`). */
export function wholeInt64(text: string): bigint | undefined {
  const parts = NUMBER_PARTS.exec(text);
  if (!parts) return undefined;
  const [, sign, whole, fraction = '', exponent = '0'] = parts;
  const digits = (whole! + fraction).replace(/^0+(?=\d)/, '');
  if (/^0+$/.test(digits)) return 0n;
  const shift = Number(exponent) - fraction.length;
  const kept = shift >= 0 ? digits : digits.slice(0, shift);
  if (shift < 0 && !/^0*$/.test(digits.slice(shift))) return undefined;
  if ((kept.replace(/^0+/, '').length || 1) + Math.max(shift, 0) > 19) return undefined;
  const value = BigInt(`${sign}${kept || '0'}`) * 10n ** BigInt(Math.max(shift, 0));
  return value >= INT64_MIN && value <= INT64_MAX ? value : undefined;
}

/** An int64 of an answer as a bigint (ResponseInt64 keeps `1.0` as a JsonNumber it has checked to be a whole int64). */
export function int64Of(value: number | bigint | JsonNumber): bigint {
  if (typeof value === 'number') return BigInt(value);
  return typeof value === 'bigint' ? value : wholeInt64(value.source)!;
}

/**
 * int64 in a response (parsed with `parseAnswerJson`): a number when every number of the answer was exact as a double, else a bigint,
 * or a whole number in range spelled otherwise (`1.0`, `1e2`: integers in JSON Schema 2020-12) kept as a JsonNumber.
 */
export const ResponseInt64 = z.union(
  [z.int(), Int64, z.custom<JsonNumber>((value) => value instanceof JsonNumber && wholeInt64(value.source) !== undefined)],
  {
    error: missingOr('must be an integer (int64)'),
  },
);

const INT32_MIN = -(2n ** 31n);
const INT32_MAX = 2n ** 31n - 1n;

/**
 * int32 in a response ("integer, format int32") from `minimum` to `maximum` (inclusive; default -2^31 and 2^31 - 1), as
 * {@link ResponseInt64}: `responseInt32({ minimum: 1n })` for a quantity. Throws (a bug) on bounds outside int32 or crossed.
 */
export function responseInt32({ minimum = INT32_MIN, maximum = INT32_MAX }: { minimum?: bigint; maximum?: bigint } = {}) {
  if (minimum < INT32_MIN || maximum > INT32_MAX || minimum > maximum) throw new Error(`int32 bounds ${minimum} to ${maximum}`);
  const atLeast = `must be at least ${minimum}`;
  const atMost = `must be at most ${maximum}`;
  return z.union(
    [
      z.int().check(z.gte(Number(minimum), atLeast), z.lte(Number(maximum), atMost)),
      z.bigint().check(z.gte(minimum, atLeast), z.lte(maximum, atMost)),
      z.custom<JsonNumber>((value) => {
        const whole = value instanceof JsonNumber ? wholeInt64(value.source) : undefined;
        return whole !== undefined && whole >= minimum && whole <= maximum;
      }),
    ],
    { error: missingOr('must be an integer (int32)') },
  );
}

/** int32 in a response, any int32 value (see {@link responseInt32}). */
export const ResponseInt32 = responseInt32();

/** An int64 typed as decimal digits ("42" → 42n); rejects "abc", "1.5", "1e3" and out-of-range values. */
export const Int64Text = z.pipe(
  z.pipe(
    z.string().check(z.regex(/^-?\d+$/, 'must be an integer written as decimal digits')),
    z.transform((text: string) => BigInt(text)),
  ),
  Int64,
);

export const PetStatus = z.enum(PET_STATUSES, { error: `allowed values: ${PET_STATUSES.join(', ')}` });
export type PetStatus = z.infer<typeof PetStatus>;

/** createPet's body: `name` and `categoryId` required. */
export const NewPet = z.strictObject({
  name: z.string({ error: missingOr('must be a string') }).check(z.minLength(1, 'must not be empty')),
  categoryId: Int64,
  status: z.optional(PetStatus),
});
export type NewPet = z.infer<typeof NewPet>;

/** Pet as returned: unknown fields and a status outside PetStatus are kept (the service may add values). */
export const Pet = z.looseObject({
  id: ResponseInt64,
  name: z.string({ error: missingOr('must be a string') }),
  categoryId: ResponseInt64,
  status: z.optional(z.string()),
});
export type Pet = z.infer<typeof Pet>;

/**
 * Whether `value` is a Pet of the usual shape (safe integer ids, string name, status absent or a string), which {@link Pet} accepts
 * too: cheaper than zod's run, which cost a bulk load more than the rest of an answer's handling (bench/RESULTS.md, issue 32).
 */
export function isPlainPet(value: unknown): boolean {
  if (!isJsonObject(value)) return false;
  const { id, name, categoryId, status } = value;
  return (
    Number.isSafeInteger(id) &&
    typeof name === 'string' &&
    Number.isSafeInteger(categoryId) &&
    (status === undefined || typeof status === 'string')
  );
}

const NEW_PET_KEYS = new Set(['name', 'categoryId', 'status']);
const STATUSES: ReadonlySet<unknown> = new Set(PET_STATUSES);

/**
 * `value` as {@link NewPet}'s parse returns it (its keys in NewPet's order), when it is a NewPet of the usual shape: no key but
 * name, categoryId and status, a non-empty name, an int64 bigint categoryId, status absent or a PetStatus; undefined for anything
 * else, which NewPet's parse then judges. Cheaper than zod's run, which a bulk load makes once per item (issue 32).
 */
export function plainNewPet(value: unknown): NewPet | undefined {
  if (!isJsonObject(value)) return undefined;
  // for...in, not Object.keys: no array per item (a parsed item inherits no enumerable key).
  for (const key in value) if (!NEW_PET_KEYS.has(key)) return undefined;
  const { name, categoryId, status } = value;
  if (typeof name !== 'string' || name === '' || typeof categoryId !== 'bigint' || categoryId < INT64_MIN || categoryId > INT64_MAX) {
    return undefined;
  }
  if (status === undefined) return 'status' in value ? undefined : { name, categoryId };
  return STATUSES.has(status) ? { name, categoryId, status: status as PetStatus } : undefined;
}

const QUICK_CHECKS = new Map<z.ZodMiniType, (value: unknown) => boolean>([[Pet, isPlainPet]]);

/** A check that accepts only values `schema` accepts, cheaper than zod's run for the common ones (the others go through `schema`). */
export function quickCheckOf(schema: z.ZodMiniType): ((value: unknown) => boolean) | undefined {
  return QUICK_CHECKS.get(schema);
}

export const Pets = z.array(Pet);

/** An operation a command calls, with the schemas it sends and reads (its http.ts), compared with openapi/petstore.yaml by the tests. */
export interface OperationSchemas {
  /** openapi/petstore.yaml's operationId; for an operation the document lacks, the name the command gives it. */
  operationId: string;
  /** Set, in one line, when the document lacks the operation: why. Its schemas are then compared with nothing. */
  notInDocument?: string;
  /** The query parameters, as one object. */
  query?: z.ZodMiniType;
  /** Each path parameter, by name. */
  path?: Readonly<Record<string, z.ZodMiniType>>;
  /** The JSON request body. */
  body?: z.ZodMiniType;
  /** The JSON body of the success answer (the first 2xx the document lists). */
  answer?: z.ZodMiniType;
}

/** The interface's Error object. */
export const ServiceErrorBody = z.looseObject({
  code: z.string(),
  message: z.string(),
  status: z.union([z.number(), z.bigint()]),
});
export type ServiceErrorBody = z.infer<typeof ServiceErrorBody>;

/** Whole-number flag text: digits only, then checked by `schema`. */
export function wholeNumberText<T extends z.ZodMiniType<number, number>>(schema: T, message: string) {
  return z.pipe(
    z.pipe(
      z.string().check(z.regex(/^\d+$/, message)),
      z.transform((text: string) => Number(text)),
    ),
    schema,
  );
}

/**
 * A paged operation's `limit` query parameter from `min` to `max` (listPets: 1 to 100): `number`, the query's schema in OPERATIONS (with
 * `z._default` for the default the document states), and `text`, its `--limit` flag's (digits only, then the bounds).
 */
export function pageLimit({ min, max }: { min: number; max: number }) {
  const range = `must be a whole number from ${min} to ${max}`;
  const number = z.number().check(z.int(range), z.gte(min, range), z.lte(max, range));
  return { number, text: wholeNumberText(number, range) };
}

/** Where a value departs from a schema, first field named: "pets[0].id: required field missing". */
export function describeIssue(error: z.core.$ZodError, root: string): string {
  const issue = error.issues[0];
  if (!issue) return `${root}: invalid`;
  const path = issue.path.reduce<string>((acc, part) => (typeof part === 'number' ? `${acc}[${part}]` : `${acc}.${String(part)}`), root);
  if (issue.code === 'unrecognized_keys') return `${path}: unknown field ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
  const missing = issue.code === 'invalid_type' && /received undefined/.test(issue.message);
  return `${path}: ${missing ? MISSING : issue.message}`;
}
