// Property-based tests over flag values: every invalid value exits 2 without a
// request; every valid one produces a request that matches the interface. list and add run through the fake client (their flags as
// commander gives them to the runner, which checks them); get's argument through main with the fake client.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { NewPet, plainNewPet } from '../src/api/schemas.js';
import { newPetJson } from '../src/commands/add/http.js';
import { ADD } from '../src/commands/add/run.js';
import { LIST } from '../src/commands/list/run.js';
import { type Given, runCommand } from '../src/commands/runner.js';
import { parseJson, stringifyJson } from '../src/json.js';
import { fakeClientFactory, thrownBy } from './support/fake-client.js';

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

type Fake = ReturnType<typeof fakeClientFactory>;

/** Runs `contract` with `given` on a fake client that `answer` sets up; resolves to what it threw and the fake, closed (every answer used). */
async function ran(contract: Parameters<typeof runCommand>[1], given: Given, answer: (fake: Fake) => void = () => undefined) {
  const fake = fakeClientFactory();
  answer(fake);
  const error = await thrownBy(runCommand(fake.f, contract, given));
  await fake.close();
  return { error, fake };
}

function expectRejected({ error, fake }: { error: unknown; fake: Fake }) {
  expect(error).toMatchObject({ exitCode: 2 });
  expect(fake.written.stdout).toBe('');
  expect(fake.requests).toEqual([]);
}

describe('flag properties', () => {
  test('--limit: valid values reach the query as sent, others exit 2 with no request', async () => {
    await fc.assert(
      fc.asyncProperty(numberish, async (limit) => {
        if (!isLimitText(limit)) return expectRejected(await ran(LIST, { flags: { limit } }));
        const { error, fake } = await ran(LIST, { flags: { limit } }, (fake) =>
          fake.answer('GET', `/v1/pets?limit=${Number(limit)}`, 200, '[]'),
        );
        expect(error).toBeUndefined();
        expect(fake.requests.map((q) => q.path)).toEqual([`/v1/pets?limit=${Number(limit)}`]);
      }),
      { numRuns: 60 },
    );
  });

  test('--status: only PetStatus values are sent', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string(), fc.constantFrom(...STATUSES, 'Available', 'sold ', '')), async (status) => {
        if (!STATUSES.includes(status)) return expectRejected(await ran(LIST, { flags: { status } }));
        const { error, fake } = await ran(LIST, { flags: { status } }, (fake) =>
          fake.answer('GET', `/v1/pets?limit=20&status=${status}`, 200, '[]'),
        );
        expect(error).toBeUndefined();
        expect(fake.requests.map((q) => q.path)).toEqual([`/v1/pets?limit=20&status=${status}`]);
      }),
      { numRuns: 40 },
    );
  });

  test('--category-id: int64 values reach the body with the same digits, others exit 2', async () => {
    await fc.assert(
      fc.asyncProperty(numberish, fc.string({ minLength: 1 }), async (id, name) => {
        const flags = { name, categoryId: id };
        if (!isInt64Text(id)) return expectRejected(await ran(ADD, { flags }));
        const { error, fake } = await ran(ADD, { flags }, (fake) =>
          fake.answer('POST', '/v1/pets', 201, JSON.stringify({ id: 1, name, categoryId: 1 })),
        );
        expect(error).toBeUndefined();
        expect(fake.sent.map((q) => q.headers['content-type'])).toEqual(['application/json']);
        const body = fake.sent[0]!.body;
        expect(Object.keys(JSON.parse(body))).toEqual(['name', 'categoryId']);
        expect(JSON.parse(body).name).toBe(name);
        expect(body.endsWith(`"categoryId":${BigInt(id)}}`)).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  test('petId: int64 values reach the path as decimal digits, "-" reads standard input, others exit 2', async () => {
    await fc.assert(
      fc.asyncProperty(numberish, async (id) => {
        const fake = fakeClientFactory({ env: { PETSTORE_NO_DEPRECATION_WARNING: '1' } });
        if (id === '-') {
          // "-" reads the ids from standard input (empty here): nothing sent, nothing printed.
          expect(await fake.main(['get', '--', id])).toMatchObject({ code: 0, stdout: '' });
          expect(fake.requests).toEqual([]);
        } else if (!isInt64Text(id)) {
          expect(await fake.main(['get', '--', id])).toMatchObject({ code: 2, stdout: '' });
          expect(fake.requests).toEqual([]);
        } else {
          const canonical = BigInt(id).toString();
          fake.answer('GET', `/v1/pets/${canonical}`, 200, `{"id":${canonical},"name":"x","categoryId":1}`);
          const r = await fake.main(['get', '--json', '--', id]);
          expect(r.code).toBe(0);
          expect(r.stdout).toBe(`{"id":${canonical},"name":"x","categoryId":1}\n`);
          expect(fake.requests.map((q) => q.path)).toEqual([`/v1/pets/${canonical}`]);
        }
        await fake.close();
      }),
      { numRuns: 60 },
    );
  });
});

describe('NewPet bodies', () => {
  test('newPetJson writes the text stringifyJson writes of every NewPet, however its input item was written', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', minLength: 1 }),
        fc.bigInt({ min: INT64_MIN, max: INT64_MAX }),
        fc.option(fc.constantFrom(...STATUSES), { nil: undefined }),
        fc.boolean(),
        (name, categoryId, status, reversed) => {
          const fields = [`"name":${JSON.stringify(name)}`, `"categoryId":${categoryId}`, ...(status ? [`"status":"${status}"`] : [])];
          const value = parseJson(`{${(reversed ? fields.reverse() : fields).join(',')}}`);
          // A bulk load's NewPet (plainNewPet's, else NewPet's parse) and a prompted one (NewPet's parse).
          for (const pet of [plainNewPet(value) ?? NewPet.parse(value), NewPet.parse(value)])
            expect(newPetJson(pet)).toBe(stringifyJson(pet));
        },
      ),
    );
  });
});
