// The Prism contract run can fail: Prism (--errors) in front of a loopback
// fake service (sandbox/pet-service.mjs) that breaks openapi/petstore.yaml as each test tells it, with
// petstore in-process (what it prints and exits with needs no process). Each kind of violation is either
// seen by petstore (another exit code and message) or recorded by the front of
// test/support/prism.ts, which the end-to-end run asserts empty after each test.
// One server and one Prism serve the whole file (Prism takes about a second
// of CPU to start).
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { startPetService, type PetService } from '../sandbox/pet-service.mjs';
import { run, wrapped } from './helpers.js';
import { startPrismProxy, type PrismProxy } from './support/prism.js';

/** What the fake service answers to every request, set by each test. */
let answer: { status: number; json: unknown };
let upstream: PetService;
let upstreamUrl: string;
let prism: PrismProxy;
/** How many requests the service had seen when the test began. */
let seen = 0;

beforeAll(async () => {
  upstream = await startPetService({ key: 'k', faults: () => ({ status: answer.status, json: answer.json }) });
  upstreamUrl = upstream.baseUrl;
  prism = await startPrismProxy(upstreamUrl);
});

afterAll(async () => {
  await prism?.stop();
  await upstream?.close();
});

beforeEach(() => {
  seen = upstream.requests.length;
  prism.takeViolations();
});

/** The requests that reached the service in this test, as "METHOD /path". */
const received = () => upstream.requests.slice(seen).map((r) => `${r.method} ${r.url}`);

/** petstore in-process against `baseUrl`, with a fresh config folder: exit code, stdout, stderr. */
async function petstore(args: string[], baseUrl = prism.baseUrl) {
  const env = { NO_COLOR: '1', PETSTORE_BASE_URL: baseUrl, PETSTORE_API_KEY: 'contract-key', PETSTORE_NO_DEPRECATION_WARNING: '1' };
  const { code, stdout, stderr } = await run(args, { env });
  return { code, stdout, stderr };
}

describe('the Prism contract run', () => {
  test('an answer outside the document fails: a Pet status petstore tolerates is refused by Prism with 500', async () => {
    answer = { status: 200, json: { id: 5, name: 'Rex', categoryId: 1, status: 'lost' } };
    // petstore keeps a status outside PetStatus (src/api/schemas.ts: Pet), so only the contract run catches it.
    expect(await petstore(['get', '5', '--json'], upstreamUrl)).toEqual({
      code: 0,
      stdout: '{"id":5,"name":"Rex","categoryId":1,"status":"lost"}\n',
      stderr: '',
    });
    const excerpt =
      '"{"type":"https://stoplight.io/prism/errors#VIOLATIONS","title":"Request/Response not valid","status":500,"detail":"Your …"';
    expect(await petstore(['get', '5', '--json'])).toEqual({
      code: 1,
      stdout: '',
      // With --json the error comes as one JSON object on stderr, and nothing else.
      stderr: `${JSON.stringify({ code: 'http_500', message: excerpt, status: 500 })}\n`,
    });
    expect(prism.takeViolations()).toEqual([
      expect.stringMatching(
        /^GET \/pets\/5 -> 500: .*"location":\["response","body","status"\].*must be equal to one of the allowed values: available, pending, sold/,
      ),
    ]);
    expect(received()).toEqual(['GET /v1/pets/5', 'GET /v1/pets/5']);
  });

  test('a status code the document does not list passes through unchanged and is recorded as a violation', async () => {
    answer = { status: 500, json: { code: 'boom', message: 'it broke', status: 500 } };
    const added = await petstore(['add', '--name', 'Rex', '--category-id', '1']);
    expect(added).toEqual({
      code: 1,
      stdout: '',
      stderr: wrapped(
        'error: the pet may have been created: the service answered HTTP 500 (boom: it broke), which does not say whether it stored the pet\n' +
          'petstore does not send it again. See whether a pet named "Rex" in category 1 is in the store before adding it again:\n  petstore list --all --format tsv\n',
      ),
    });
    expect(prism.takeViolations()).toEqual([
      'POST /pets -> 500: [{"location":["response"],"severity":"Warning","message":"Unable to match the returned status code with those defined in the document: 201,400,401"}]',
    ]);
    expect(received()).toEqual(['POST /v1/pets']);
  });

  test('Prism checks int64 only up to 2^53 - 1: a larger categoryId is refused with 422 and never forwarded', async () => {
    answer = { status: 201, json: { id: 1, name: 'Rex', categoryId: 1 } };
    const added = await petstore(['add', '--name', 'Rex', '--category-id', '9007199254740995']);
    expect(added).toEqual({
      code: 1,
      stdout: '',
      stderr: wrapped(
        'error: the service answered HTTP 422 (application/problem+json): "{"type":"https://stoplight.io/prism/errors#UNPROCESSABLE_ENTITY","title":"Invalid request","status":422,"detail":"Your r…"\n',
      ),
    });
    expect(prism.takeViolations()).toEqual([
      expect.stringMatching(/^POST \/pets -> 422: .*"Request body property categoryId must be <= 9007199254740991"/),
    ]);
    expect(received()).toEqual([]);
  });

  test('a path outside the document (not under /v1) is answered 404 by Prism and never forwarded', async () => {
    answer = { status: 200, json: [] };
    const base = prism.baseUrl.replace(/\/v1$/, '/v2');
    const listed = await petstore(['list'], base);
    // A 404 of listPets (which the interface never answers 404) is a wrong base URL, not a missing pet: exit 1.
    expect(listed).toEqual({
      code: 1,
      stdout: '',
      stderr: wrapped(
        'error: the service has no /v2/pets: HTTP 404 ("{"type":"https://stoplight.io/prism/errors#NO_PATH_MATCHED_ERROR","title":"Route not resolved, no path matched","status"…"); the base URL may be wrong\n' +
          `Check the base URL ${base}/ (from PETSTORE_BASE_URL): the interface's paths are under its /v1, as in https://petstore.example.com/v1\n`,
      ),
    });
    expect(prism.takeViolations()).toEqual([expect.stringMatching(/^GET \/v2\/pets\?limit=20 -> 404: .*NO_PATH_MATCHED_ERROR/)]);
    expect(received()).toEqual([]);
  });
});
