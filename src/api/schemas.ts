/**
 * zod schemas of the interface objects (petstore-interface.md, "Resources and
 * their fields" and "Endpoints"). The same schemas check flags before a request
 * and parse responses. Integers of format int64 are `bigint` so that ids above
 * 2^53 stay exact; responses must be parsed with `parseJson` for that.
 */
import { z } from 'zod';

export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

const MISSING = 'required field missing';

/** Interface type "integer, format int64", held as a bigint. */
export const Int64 = z
  .bigint({ error: (issue) => (issue.input === undefined ? MISSING : 'must be an integer (int64)') })
  .min(INT64_MIN, 'must be at least -9223372036854775808')
  .max(INT64_MAX, 'must be at most 9223372036854775807');

/**
 * An int64 written by a user as decimal digits (an optional minus sign, no
 * exponent, no fraction): "42" → 42n. Rejects "abc", "1.5", "1e3" and values
 * outside the int64 range.
 */
export const Int64Text = z
  .string()
  .regex(/^-?\d+$/, 'must be an integer written as decimal digits')
  .transform((text) => BigInt(text))
  .pipe(z.bigint().min(INT64_MIN, 'must be at least -9223372036854775808').max(INT64_MAX, 'must be at most 9223372036854775807'));

/** PetStatus: `available`, `pending` or `sold`. */
export const PetStatus = z.enum(['available', 'pending', 'sold']);
export type PetStatus = z.infer<typeof PetStatus>;

/** NewPet, the request body of createPet: `name` and `categoryId` required, `status` optional. */
export const NewPet = z.strictObject({
  name: z.string({ error: (issue) => (issue.input === undefined ? MISSING : 'must be a string') }).min(1, 'must not be empty'),
  categoryId: Int64,
  status: PetStatus.optional(),
});
export type NewPet = z.infer<typeof NewPet>;

/**
 * Pet, as returned by the service: NewPet plus `id`. Unknown fields are kept,
 * and so is a status outside PetStatus: the service may add values, and the
 * client shows what it was sent rather than failing.
 */
export const Pet = z.looseObject({
  id: Int64,
  name: z.string(),
  categoryId: Int64,
  status: z.string().optional(),
});
export type Pet = z.infer<typeof Pet>;

/** Pets: a JSON array of Pet. */
export const Pets = z.array(Pet);

/** The interface's Error object; every field required. */
export const ServiceErrorBody = z.looseObject({
  code: z.string(),
  message: z.string(),
  status: z.union([z.number(), z.bigint()]),
});

/** Query parameters of listPets: `limit` 1..100 (default 20) and an optional `status`. */
export const ListPetsQuery = z.strictObject({
  limit: z.number().int().min(1).max(100).default(20),
  status: PetStatus.optional(),
});
export type ListPetsQuery = z.infer<typeof ListPetsQuery>;

/** Decimal text for `--limit`: digits only, then checked against ListPetsQuery's bounds. */
export const LimitText = z
  .string()
  .regex(/^\d+$/, 'must be a whole number from 1 to 100')
  .transform((text) => Number(text))
  .pipe(ListPetsQuery.shape.limit.unwrap());

/** Describes where a parsed response departs from a schema, naming the first field: "pets[0].id: missing". */
export function describeIssue(error: z.ZodError, root: string): string {
  const issue = error.issues[0];
  if (!issue) return `${root}: invalid`;
  const path = issue.path.reduce<string>(
    (acc, part) => (typeof part === 'number' ? `${acc}[${part}]` : `${acc}.${String(part)}`),
    root,
  );
  const missing = issue.code === 'invalid_type' && /received undefined/.test(issue.message);
  if (issue.code === 'unrecognized_keys') return `${path}: unknown field ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
  return `${path}: ${missing ? MISSING : issue.message}`;
}
