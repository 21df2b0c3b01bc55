// The compact set that keeps a listing's ids (issue 38): the same members as a Set of bigints, for any int64, as a number or a bigint.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { Int64Set } from '../src/api/int64-set.js';

const INT64 = fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n });
/** An int64 as a listing may carry it: a safe integer as a number, or any int64 as a bigint; many near others (blocks of 64 share). */
const ID = fc.oneof(
  INT64,
  fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }).map(Number),
  fc.integer({ min: -3000, max: 3000 }),
  fc.bigInt({ min: 2n ** 63n - 300n, max: 2n ** 63n - 1n }),
  fc.bigInt({ min: -(2n ** 63n), max: -(2n ** 63n) + 300n }),
  fc.bigInt({ min: 2n ** 53n - 100n, max: 2n ** 53n + 100n }),
);

describe('Int64Set', () => {
  test('adds as a Set of bigints does: true once per value, a number and the bigint of it one member', () => {
    fc.assert(
      fc.property(fc.array(ID, { maxLength: 3000 }), (ids) => {
        const set = new Int64Set();
        const model = new Set<bigint>();
        for (const id of ids) {
          const big = BigInt(id);
          expect(set.add(id)).toBe(!model.has(big));
          model.add(big);
          expect(set.has(typeof id === 'number' ? big : Number.isSafeInteger(Number(id)) ? Number(id) : id)).toBe(true);
        }
        expect(set.size).toBe(model.size);
      }),
      { numRuns: 200 },
    );
  });

  test('0, -1, the int64 bounds and values 2^32 apart are all distinct members', () => {
    const set = new Int64Set();
    const values = [0n, -1n, 1n, 2n ** 32n, -(2n ** 32n), 2n ** 63n - 1n, -(2n ** 63n), 4294967295n, 2n ** 53n + 1n];
    for (const value of values) expect(set.add(value)).toBe(true);
    for (const value of values) expect(set.add(value)).toBe(false);
    expect(set.add(0)).toBe(false);
    expect(set.add(-1)).toBe(false);
    expect(set.add(4294967296)).toBe(false);
    expect(set.size).toBe(values.length);
  });

  test('ids 64 apart (a block each) and ids in one block, added in any order, are members once', () => {
    const set = new Int64Set();
    for (let id = 64; id <= 64 * 5000; id += 64) expect(set.add(id)).toBe(true);
    for (let id = 64 * 5000 - 1; id >= 1; id -= 1) expect(set.add(id)).toBe(id % 64 !== 0);
    expect(set.size).toBe(64 * 5000);
    expect(set.has(0)).toBe(false);
    expect(set.has(64 * 5000 + 1)).toBe(false);
  });

  test('grows past a million members and finds every one (a whole store of consecutive ids, and ids spaced 2^32 apart)', () => {
    const set = new Int64Set();
    for (let id = 1; id <= 1_000_000; id += 1) set.add(id);
    for (let i = 1n; i <= 20_000n; i += 1n) set.add(i << 32n);
    expect(set.size).toBe(1_020_000);
    for (let id = 1; id <= 1_000_000; id += 997) expect(set.has(id)).toBe(true);
    expect(set.has(1_000_001)).toBe(false);
    expect(set.has(20_001n << 32n)).toBe(false);
    expect(set.has(7n << 32n)).toBe(true);
  });
});
