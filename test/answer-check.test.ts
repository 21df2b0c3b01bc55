// The quick check of a Pet answer (api/schemas.ts isPlainPet, tried before zod by PetstoreClient.expect): it accepts only what the
// Pet schema accepts, so a bulk load skips zod's run for the usual answer and nothing it would refuse gets through.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { isPlainPet, Pet } from '../src/api/schemas.js';

const int = fc.oneof(
  fc.integer(),
  fc.constantFrom(2 ** 53, -(2 ** 53), 2 ** 53 - 1, 1.5, -0, Number.NaN, Number.POSITIVE_INFINITY),
  fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }),
  fc.string(),
  fc.constant(null),
);
const petLike = fc.record(
  {
    id: int,
    name: fc.oneof(fc.string(), fc.integer(), fc.constant(null)),
    categoryId: int,
    status: fc.oneof(fc.string(), fc.constant(null)),
  },
  { requiredKeys: [] },
);

describe('isPlainPet', () => {
  test('every value it accepts the Pet schema accepts', () => {
    fc.assert(
      fc.property(fc.oneof(petLike, fc.anything(), fc.array(petLike)), (value) => {
        if (isPlainPet(value)) expect(Pet.safeParse(value).success).toBe(true);
      }),
      { numRuns: 5000 },
    );
  });

  test('it takes the usual answer and leaves the rest to the schema', () => {
    expect(isPlainPet({ id: 1, name: 'Rex', categoryId: 2, status: 'available', extra: [1] })).toBe(true);
    expect(isPlainPet({ id: 1, name: 'Rex', categoryId: 2 })).toBe(true);
    // Valid, but the schema's to judge: an exact bigint, a number past 2^53, a missing or null field, an array.
    for (const value of [
      { id: 9007199254740993n, name: 'Rex', categoryId: 2 },
      { id: 2 ** 53, name: 'Rex', categoryId: 2 },
      { id: 1, categoryId: 2 },
      { id: 1, name: 'Rex', categoryId: 2, status: null },
      [{ id: 1, name: 'Rex', categoryId: 2 }],
    ])
      expect(isPlainPet(value)).toBe(false);
  });
});
