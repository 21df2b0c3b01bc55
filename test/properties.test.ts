// Property-based tests over flag values: every invalid value exits 2 without a
// request; every valid one produces a request that matches the interface.
import fc from 'fast-check';
import nock from 'nock';
import { describe, expect, test } from 'vitest';
import { BASE, run, serviceEnv } from './helpers.js';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

const isInt64Text = (s: string) => /^-?\d+$/.test(s) && BigInt(s) >= INT64_MIN && BigInt(s) <= INT64_MAX;
const isLimitText = (s: string) => /^\d+$/.test(s) && Number(s) >= 1 && Number(s) <= 100;
const STATUSES = ['available', 'pending', 'sold'];

/** Strings near the edges: numbers of every size, decimals, exponents, junk. */
const numberish = fc.oneof(
  fc.string(),
  fc.integer({ min: -200, max: 200 }).map(String),
  fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }).map(String),
  fc.constantFrom(
    '1e3',
    '1.5',
    ' 1',
    '1 ',
    '0x10',
    '+5',
    '',
    '-',
    '007',
    '9223372036854775807',
    '9223372036854775808',
    '-9223372036854775808',
  ),
);

async function expectRejected(argv: string[]) {
  const r = await run(argv, { env: serviceEnv() });
  expect(r.code).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.unmatched).toEqual([]);
}

describe('flag properties', () => {
  test('--limit: valid values reach the query as sent, others exit 2 with no request', async () => {
    await fc.assert(
      fc.asyncProperty(numberish, async (limit) => {
        if (!isLimitText(limit)) return expectRejected(['list', `--limit=${limit}`]);
        const scope = nock(BASE)
          .get('/v1/pets')
          .query({ limit: String(Number(limit)) })
          .reply(200, []);
        const r = await run(['list', `--limit=${limit}`], { env: serviceEnv() });
        expect(r.code).toBe(0);
        expect(scope.isDone()).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  test('--status: only PetStatus values are sent', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string(), fc.constantFrom(...STATUSES, 'Available', 'sold ', '')), async (status) => {
        if (!STATUSES.includes(status)) return expectRejected(['list', `--status=${status}`]);
        const scope = nock(BASE).get('/v1/pets').query({ limit: '20', status }).reply(200, []);
        expect((await run(['list', `--status=${status}`], { env: serviceEnv() })).code).toBe(0);
        expect(scope.isDone()).toBe(true);
      }),
      { numRuns: 40 },
    );
  });

  test('--category-id: int64 values reach the body with the same digits, others exit 2', async () => {
    await fc.assert(
      fc.asyncProperty(numberish, fc.string({ minLength: 1 }), async (id, name) => {
        if (!isInt64Text(id)) return expectRejected(['add', `--name=${name}`, `--category-id=${id}`]);
        let sent: unknown;
        const scope = nock(BASE, { reqheaders: { 'content-type': 'application/json' } })
          .post('/v1/pets', (body) => {
            sent = body;
            return true;
          })
          .reply(201, { id: 1, name, categoryId: 1 });
        const r = await run(['add', `--name=${name}`, `--category-id=${id}`], { env: serviceEnv() });
        expect(r.code).toBe(0);
        expect(scope.isDone()).toBe(true);
        expect(Object.keys(sent as object)).toEqual(['name', 'categoryId']);
        expect((sent as { name: string }).name).toBe(name);
      }),
      { numRuns: 60 },
    );
  });

  test('petId: int64 values reach the path as decimal digits, "-" reads standard input, others exit 2', async () => {
    await fc.assert(
      fc.asyncProperty(numberish, async (id) => {
        if (id === '-') {
          // "-" reads the ids from standard input (empty here): nothing sent, nothing printed.
          const r = await run(['get', '--', id], { env: serviceEnv() });
          expect(r).toMatchObject({ code: 0, stdout: '', unmatched: [] });
          return;
        }
        if (!isInt64Text(id)) return expectRejected(['get', '--', id]);
        const canonical = BigInt(id).toString();
        const scope = nock(BASE).get(`/v1/pets/${canonical}`).reply(200, `{"id":${canonical},"name":"x","categoryId":1}`, {
          'content-type': 'application/json',
        });
        const r = await run(['get', '--json', '--', id], { env: serviceEnv({ PETSTORE_NO_DEPRECATION_WARNING: '1' }) });
        expect(r.code).toBe(0);
        expect(r.stdout).toBe(`{"id":${canonical},"name":"x","categoryId":1}\n`);
        expect(scope.isDone()).toBe(true);
      }),
      { numRuns: 60 },
    );
  });
});
