// localhost and *.localhost reach this machine without asking DNS (RFC 6761):
// such a base URL is trusted as loopback (plain http allowed, no proxy), so the
// key must never go where a resolver answers for the name. In-process: a
// request sent through the proxy named (nobody listens there) or to a name
// the resolver must find fails the test.
import { afterEach, expect, test } from 'vitest';
import { type PetService, startPetService } from '../sandbox/pet-service.mjs';
import { run } from './helpers.js';

let service: PetService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

test.each([
  ['petstore-test.localhost', 'a name no resolver here knows (getent hosts says nothing)'],
  ['localhost', 'the plain name'],
  ['API.Petstore.LOCALHOST', 'any case'],
])('http://%s: the request reaches the loopback service (%s), proxies set or not', async (host) => {
  service = await startPetService({ key: 'k' });
  const env = {
    PETSTORE_BASE_URL: `http://${host}:${service.port}/v1`,
    PETSTORE_API_KEY: 'k',
    // A proxy that does not exist: a loopback name never goes through one.
    HTTP_PROXY: 'http://127.0.0.1:9',
  };
  const r = await run(['list', '--json', '--limit', '1'], { env });
  expect(r).toMatchObject({ code: 0, stderr: expect.not.stringContaining('error') });
  expect(JSON.parse(r.stdout)).toHaveLength(1);
  expect(service.requests.map((q) => [q.url, q.headers.authorization, q.headers.host])).toEqual([
    ['/v1/pets?limit=1', 'Bearer k', `${host.toLowerCase()}:${service.port}`],
  ]);
});
