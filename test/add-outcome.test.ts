// A single add whose answer does not prove what happened (issue 38): a 3xx, 408, 425, 429 or 503 without Retry-After, or another 5xx,
// after the request was sent, says the pet may have been created (code outcome_unknown, exit 1) and how to look, as a bulk load's
// `unknown` does; a 2xx that cannot be read says it was created; a connection never made says neither. Counted from the store.
import { afterEach, describe, expect, test } from 'vitest';
import { type PetService, type Step, startPetService } from '../sandbox/pet-service.mjs';
import { run, wrapped, unwrapped } from './helpers.js';

let service: PetService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

/** An empty store answering every request with `step`; `add --name Rex --category-id 1` and `extra` run against it. */
async function add(step: Step, ...extra: string[]) {
  service = await startPetService({ key: 'k', seed: false, faults: [step] });
  const r = await run(['add', '--name', 'Rex', '--category-id', '1', ...extra], {
    env: { PETSTORE_BASE_URL: service.baseUrl, PETSTORE_API_KEY: 'k' },
  });
  return { ...r, stored: service.pets.size, posts: service.requests.filter((q) => q.method === 'POST').length, all: service.requests };
}

const LOOK = 'See whether a pet named "Rex" in category 1 is in the store before adding it again:\n  petstore list --all --format tsv';
const maybe = (answer: string) =>
  `error: the pet may have been created: the service answered ${answer}, which does not say whether it stored the pet\n`;

describe('add answered after the request was sent, with a status that proves nothing: "may have been created", exit 1', () => {
  test('303 after storing: the Location named, never followed; the store holds the pet once', async () => {
    const r = await add({ serveThen: { status: 303, headers: { location: '/v1/pets/1' } } });
    expect(r).toMatchObject({
      code: 1,
      stdout: '',
      stderr: wrapped(`${maybe('HTTP 303 redirecting to /v1/pets/1')}petstore follows no redirect and does not send it again. ${LOOK}\n`),
    });
    expect(r.stored).toBe(1);
    expect(r.all.map((q) => q.method)).toEqual(['POST']);
  });

  test('--json: code outcome_unknown, the status, the hint', async () => {
    const r = await add({ serveThen: { status: 303, headers: { location: '/v1/pets/1' } } }, '--json', '--status', 'sold');
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stderr)).toEqual({
      code: 'outcome_unknown',
      message:
        'the pet may have been created: the service answered HTTP 303 redirecting to /v1/pets/1, which does not say whether it stored the pet',
      status: 303,
      hint:
        'petstore follows no redirect and does not send it again. ' +
        'See whether a pet named "Rex" in category 1 is in the store before adding it again:\n  petstore list --all --status sold --format tsv',
    });
  });

  test('a Location with control bytes and of any length: sanitised, cut at 200 characters', async () => {
    const long = `/v1/pets/${'x'.repeat(300)}`;
    const r = await add({ status: 301, headers: { location: `${long}\u009b2J` } });
    expect(r.code).toBe(1);
    expect(r.stderr).not.toMatch(/[\u001b\u009b]/);
    expect(unwrapped(r.stderr)).toContain(`redirecting to ${long.slice(0, 200)}…, which does not say`);
    const none = await add({ status: 302 });
    expect(none.stderr).toBe(
      wrapped(`${maybe('HTTP 302 without a Location')}petstore follows no redirect and does not send it again. ${LOOK}\n`),
    );
  });

  test('500 with an Error body after storing: its code and message named', async () => {
    const r = await add({ serveThen: { status: 500, json: { code: 'internal', message: 'broke', status: 500 } } });
    expect(r).toMatchObject({
      code: 1,
      stderr: wrapped(`${maybe('HTTP 500 (internal: broke)')}petstore does not send it again. ${LOOK}\n`),
    });
    expect(r.stored).toBe(1);
    expect(r.posts).toBe(1);
  });

  test.each([[408], [425], [500], [503]])(
    '%i with a Location after storing: the Location named, the store holds the pet once',
    async (status) => {
      const r = await add({ serveThen: { status, headers: { location: '/v1/pets/1' }, json: { code: 'busy', message: 'later', status } } });
      expect(r).toMatchObject({
        code: 1,
        stderr: wrapped(`${maybe(`HTTP ${status} with Location /v1/pets/1 (busy: later)`)}petstore does not send it again. ${LOOK}\n`),
      });
      expect(r.stored).toBe(1);
      expect(r.posts).toBe(1);
    },
  );

  test.each([[408], [425], [429], [502], [503], [504]])('%i without Retry-After: sent once, may have been created', async (status) => {
    const r = await add({ status, body: '' });
    expect(r.code).toBe(1);
    expect(r.posts).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^error: the pet may have been created: the service answered HTTP ${status} `));
    expect(r.stderr).toContain(`\n${wrapped(`petstore does not send it again. ${LOOK}\n`)}`);
  });
});

describe('add answers that do prove something keep their own messages', () => {
  test('429 with Retry-After (not taken) keeps its retry hint; the same 429 without it may have created the pet', async () => {
    const error = { code: 'slow', message: 'slow down', status: 429 };
    const r = await add({ status: 429, headers: { 'retry-after': '120' }, json: error });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: slow down \(HTTP 429, code slow\)\nThe service asks to retry after /);
    expect(r.stderr).not.toContain('may have been created');
    const without = await add({ status: 429, json: error });
    expect(without.stderr).toBe(wrapped(`${maybe('HTTP 429 (slow: slow down)')}petstore does not send it again. ${LOOK}\n`));
  });

  test('400: refused, exit 2, nothing stored; a 500 after storing: may have been created, the store holds it', async () => {
    const refused = await add({ status: 400, json: { code: 'invalid', message: 'bad name', status: 400 } });
    expect(refused).toMatchObject({ code: 2, stderr: 'error: bad name (HTTP 400, code invalid)\n', stored: 0 });
    const stored = await add({ serveThen: { status: 500, json: { code: 'internal', message: 'broke', status: 500 } } });
    expect(stored).toMatchObject({ code: 1, stderr: expect.stringMatching(/^error: the pet may have been created: /), stored: 1 });
  });

  test('a connection refused before the request was written: "cannot reach", never "may have been created"; a 502 after it: may have', async () => {
    const r = await run(['add', '--name', 'Rex', '--category-id', '1', '--retries', '0'], {
      env: { PETSTORE_BASE_URL: 'http://127.0.0.1:9/v1', PETSTORE_API_KEY: 'k' },
    });
    expect(r).toMatchObject({
      code: 1,
      stderr:
        'error: cannot reach 127.0.0.1:9: ECONNREFUSED\nIs the service running at http://127.0.0.1:9/v1/?\nThe base URL is from PETSTORE_BASE_URL.\n',
    });
    const sent = await add({ status: 502, body: 'bad gateway' });
    expect(sent.stderr).toMatch(/^error: the pet may have been created: the service answered HTTP 502 /);
  });

  test('201 whose body is not JSON: the pet was created (the store holds it), and the message says so', async () => {
    const r = await add({ serveUnreadable: 'malformed-json' });
    expect(r.code).toBe(1);
    expect(r.stored).toBe(1);
    expect(r.stderr).toMatch(/^error: unexpected response \(HTTP 201\): malformed JSON: /);
    expect(r.stderr).toContain(
      `\n${wrapped(`The service answered HTTP 201: the pet was created, but its answer could not be read; petstore does not send it again. ${LOOK}\n`)}`,
    );
  });

  test('201 whose body is cut off (--timeout): may have been created, as a bulk load says', async () => {
    const r = await add({ serveUnreadable: 'short-body' }, '--timeout', '500');
    expect(r.code).toBe(1);
    expect(r.stored).toBe(1);
    expect(unwrapped(r.stderr)).toMatch(
      /^error: the pet may have been created: the service answered HTTP 201, then its body was cut off \(.*timed out/,
    );
    expect(JSON.parse((await add({ serveUnreadable: 'short-body' }, '--timeout', '500', '--json')).stderr)).toMatchObject({
      code: 'outcome_unknown',
      status: 201,
    });
  });
});
