import nock from 'nock';
import { describe, expect, test } from 'vitest';
import { GET_DEPRECATION_WARNING } from '../src/commands/get.js';
import { BASE, errorBody, run, serviceEnv } from './helpers.js';

const WARNING =
  'warning: getPet (GET /pets/{petId}) is deprecated and will be removed on 2030-12-05; ' +
  'use "petstore list --status <status>" (GET /pets with a status filter) instead\n';

describe('petstore get', () => {
  test('prints the pet, and the deprecation warning on stderr only', async () => {
    expect(`${GET_DEPRECATION_WARNING}\n`).toBe(WARNING);
    nock(BASE).get('/v1/pets/42').reply(200, { id: 42, name: 'Rex', categoryId: 1, status: 'pending', color: 'brown' });
    const r = await run(['get', '42'], { env: serviceEnv() });
    expect(r).toEqual({
      code: 0,
      stdout: 'id\t42\nname\tRex\ncategoryId\t1\nstatus\tpending\ncolor\tbrown\n',
      stderr: WARNING,
      unmatched: [],
    });
  });

  test('--json prints the service JSON with an id above 2^53 exact', async () => {
    const body = '{"id":9007199254740993,"name":"Rex","categoryId":1}';
    nock(BASE).get('/v1/pets/9007199254740993').reply(200, body, { 'content-type': 'application/json' });
    const r = await run(['get', '9007199254740993', '--json'], { env: serviceEnv() });
    expect(r).toEqual({ code: 0, stdout: `${body}\n`, stderr: WARNING, unmatched: [] });
  });

  test('PETSTORE_NO_DEPRECATION_WARNING=1 silences the warning', async () => {
    nock(BASE).get('/v1/pets/1').reply(200, { id: 1, name: 'Rex', categoryId: 1 });
    const r = await run(['get', '1'], { env: serviceEnv({ PETSTORE_NO_DEPRECATION_WARNING: '1' }) });
    expect(r).toEqual({ code: 0, stdout: 'id\t1\nname\tRex\ncategoryId\t1\nstatus\t-\n', stderr: '', unmatched: [] });
  });

  test('a 404 exits 3', async () => {
    nock(BASE).get('/v1/pets/99').reply(404, errorBody(404, 'not_found', 'no animal with id 99'));
    const r = await run(['get', '99', '--json'], { env: serviceEnv({ PETSTORE_NO_DEPRECATION_WARNING: '1' }) });
    expect(r).toEqual({
      code: 3,
      stdout: '',
      stderr: 'error: no animal with id 99 (HTTP 404, code not_found)\n{"code":"not_found","message":"no animal with id 99","status":404}\n',
      unmatched: [],
    });
  });

  test('a 401 exits 4', async () => {
    nock(BASE).get('/v1/pets/1').reply(401, errorBody(401, 'unauthorized', 'bad key'));
    const r = await run(['get', '1'], { env: serviceEnv() });
    expect(r.code).toBe(4);
  });

  test.each(['abc', '1.5', '1e3', '9223372036854775808', '0x10'])('rejects petId "%s" with exit 2 and sends nothing', async (id) => {
    const r = await run(['get', id], { env: serviceEnv() });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(new RegExp(`^error: invalid value for argument <petId>: "${id}": must be`));
    expect(r.unmatched).toEqual([]);
  });
});
