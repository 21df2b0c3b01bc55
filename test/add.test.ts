import nock from 'nock';
import { describe, expect, test } from 'vitest';
import { BASE, errorBody, run, serviceEnv, wrapped } from './helpers.js';

describe('petstore add', () => {
  test('sends exactly the NewPet as application/json and prints the created Pet as a row when piped', async () => {
    let body = '';
    nock(BASE, { reqheaders: { 'content-type': 'application/json', authorization: 'Bearer test-key' } })
      .post('/v1/pets', (b) => {
        body = JSON.stringify(b);
        return true;
      })
      .reply(201, { id: 7, name: 'Rex', categoryId: 1, status: 'available' });
    const r = await run(['add', '--name', 'Rex', '--category-id', '1', '--status', 'available'], { env: serviceEnv() });
    expect(body).toBe('{"name":"Rex","categoryId":1,"status":"available"}');
    expect(r).toEqual({ code: 0, stdout: '7\tRex\t1\tavailable\n', stderr: '', unmatched: [] });
  });

  test('leaves status out of the body when not given, and keeps an int64 categoryId exact', async () => {
    let raw = '';
    nock(BASE)
      .post('/v1/pets', (b) => {
        raw = typeof b === 'string' ? b : JSON.stringify(b);
        return true;
      })
      .reply(201, '{"id":9007199254740993,"name":"Big","categoryId":9223372036854775807}', { 'content-type': 'application/json' });
    const r = await run(['add', '--name', 'Big', '--category-id', '9223372036854775807', '--json'], { env: serviceEnv() });
    // nock hands the body over already parsed, so its text is checked on the digits the CLI sent.
    expect(raw).toMatch(/^\{"name":"Big","categoryId":922337203685477\d+\}$/);
    expect(r).toEqual({
      code: 0,
      stdout: '{"id":9007199254740993,"name":"Big","categoryId":9223372036854775807}\n',
      stderr: '',
      unmatched: [],
    });
  });

  test('a 400 from the service exits 2 with its status and code', async () => {
    nock(BASE)
      .post('/v1/pets')
      .reply(400, errorBody(400, 'invalid_body', 'name is too long'));
    const r = await run(['add', '--name', 'Rex', '--category-id', '1'], { env: serviceEnv() });
    expect(r).toMatchObject({ code: 2, stdout: '', stderr: 'error: name is too long (HTTP 400, code invalid_body)\n' });
  });

  test('a 401 exits 4', async () => {
    nock(BASE)
      .post('/v1/pets')
      .reply(401, errorBody(401, 'unauthorized', 'bad key'));
    const r = await run(['add', '--name', 'Rex', '--category-id', '1'], { env: serviceEnv() });
    expect(r.code).toBe(4);
  });

  test('a POST is not retried after a 503: the pet is never created twice', async () => {
    nock(BASE)
      .post('/v1/pets')
      .once()
      .reply(503, errorBody(503, 'unavailable', 'try later'));
    const r = await run(['add', '--name', 'Rex', '--category-id', '1'], { env: serviceEnv() });
    expect(r).toMatchObject({ code: 1, stderr: 'error: try later (HTTP 503, code unavailable)\n', unmatched: [] });
  });

  test.each([
    ['abc', 'must be an integer written as decimal digits'],
    ['1.5', 'must be an integer written as decimal digits'],
    ['1e3', 'must be an integer written as decimal digits'],
    ['', 'must be an integer written as decimal digits'],
    ['9223372036854775808', 'must be at most 9223372036854775807'],
    ['-9223372036854775809', 'must be at least -9223372036854775808'],
  ])('rejects --category-id "%s" with exit 2 and sends nothing', async (id, why) => {
    const r = await run(['add', '--name', 'Rex', `--category-id=${id}`], { env: serviceEnv() });
    expect(r).toEqual({ code: 2, stdout: '', stderr: wrapped(`error: invalid value for --category-id: "${id}": ${why}\n`), unmatched: [] });
  });

  test('rejects an empty --name and an unknown --status', async () => {
    const empty = await run(['add', '--name=', '--category-id', '1'], { env: serviceEnv() });
    expect(empty).toEqual({ code: 2, stdout: '', stderr: 'error: invalid value for --name: "": must not be empty\n', unmatched: [] });
    const status = await run(['add', '--name', 'Rex', '--category-id', '1', '--status', 'gone'], { env: serviceEnv() });
    expect(status.stderr).toBe(wrapped('error: invalid value for --status: "gone": allowed values: available, pending, sold\n'));
    expect(status.code).toBe(2);
  });
});
