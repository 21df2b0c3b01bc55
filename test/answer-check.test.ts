// The quick checks before zod (api/schemas.ts): isPlainPet of a Pet answer (PetstoreClient.expect) accepts only what the Pet schema
// accepts, and plainNewPet of a bulk load's item (load-sending.ts) returns exactly what NewPet's parse returns, so a bulk load skips
// zod's run for the usual answer and item, and nothing zod would refuse gets through.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { isPlainPet, NewPet, Pet, plainNewPet } from '../src/api/schemas.js';

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

const newPetLike = fc.record(
  {
    name: fc.oneof(fc.string(), fc.constant(''), fc.integer(), fc.constant(null)),
    categoryId: int,
    status: fc.oneof(fc.constantFrom('available', 'pending', 'sold', 'lost', 'Available', ''), fc.string(), fc.constant(null)),
    extra: fc.anything(),
  },
  { requiredKeys: [] },
);

describe('plainNewPet', () => {
  test('what it returns is what NewPet parses the value to, keys in the same order; what it leaves, zod judges', () => {
    fc.assert(
      fc.property(fc.oneof(newPetLike, fc.anything(), fc.array(newPetLike)), (value) => {
        const plain = plainNewPet(value);
        if (plain === undefined) return;
        const parsed = NewPet.safeParse(value);
        expect(parsed.success).toBe(true);
        expect(Object.keys(plain)).toEqual(Object.keys(parsed.data!));
        expect(plain).toEqual(parsed.data);
      }),
      { numRuns: 5000 },
    );
  });

  test('it takes the usual item, in any key order, and leaves the rest to the schema', () => {
    expect(plainNewPet({ categoryId: 2n, status: 'sold', name: 'Rex' })).toEqual({ name: 'Rex', categoryId: 2n, status: 'sold' });
    expect(Object.keys(plainNewPet({ categoryId: 2n, name: 'Rex' })!)).toEqual(['name', 'categoryId']);
    // Refused or the schema's to judge: an empty name, a number where JSON parsing gives a bigint, an int64 overflow, another
    // status, an unknown key, an array.
    for (const value of [
      { name: '', categoryId: 2n },
      { name: 'Rex', categoryId: 2 },
      { name: 'Rex', categoryId: 2n ** 63n },
      { name: 'Rex', categoryId: 2n, status: 'lost' },
      { name: 'Rex', categoryId: 2n, owner: 'x' },
      JSON.parse('{"name":"Rex","categoryId":1,"__proto__":{}}'),
      [{ name: 'Rex', categoryId: 2n }],
    ])
      expect(plainNewPet(value)).toBeUndefined();
  });
});
