// petstore add: the NewPet sent and the Pet printed (the fake client), the service's refusals and their exit codes, and flag values
// refused before any request (parseCommand).
import { describe, expect, test } from 'vitest';
import { newAddCommand } from '../src/commands/add/add.js';
import { ADD } from '../src/commands/add/run.js';
import { runCommand } from '../src/commands/runner.js';
import { errorBody, parseCommand, refusedBeforeRun } from './helpers.js';
import { fakeClientFactory, thrownBy } from './support/fake-client.js';

const REX = { name: 'Rex', categoryId: '1' };

describe('petstore add', () => {
  test('sends exactly the NewPet as application/json and prints the created Pet as a row when piped', async () => {
    const fake = fakeClientFactory();
    fake.answer('POST', '/v1/pets', 201, '{"id":7,"name":"Rex","categoryId":1,"status":"available"}');
    await runCommand(fake.f, ADD, { flags: { ...REX, status: 'available' } });
    expect(fake.sent).toEqual([
      {
        origin: 'https://petstore.example',
        method: 'POST',
        path: '/v1/pets',
        headers: expect.objectContaining({ 'content-type': 'application/json', authorization: 'Bearer test-key' }),
        body: '{"name":"Rex","categoryId":1,"status":"available"}',
      },
    ]);
    expect(fake.written).toEqual({ stdout: '7\tRex\t1\tavailable\n', stderr: '' });
  });

  test('leaves status out of the body when not given, and keeps an int64 categoryId exact', async () => {
    const fake = fakeClientFactory({ globals: { json: true } });
    fake.answer('POST', '/v1/pets', 201, '{"id":9007199254740993,"name":"Big","categoryId":9223372036854775807}');
    await runCommand(fake.f, ADD, { flags: { name: 'Big', categoryId: '9223372036854775807' } });
    expect(fake.sent.map((request) => request.body)).toEqual(['{"name":"Big","categoryId":9223372036854775807}']);
    expect(fake.written).toEqual({ stdout: '{"id":9007199254740993,"name":"Big","categoryId":9223372036854775807}\n', stderr: '' });
  });

  test('a 400 from the service exits 2 with its status and code', async () => {
    const fake = fakeClientFactory();
    fake.answer('POST', '/v1/pets', 400, JSON.stringify(errorBody(400, 'invalid_body', 'name is too long')));
    expect(await thrownBy(runCommand(fake.f, ADD, { flags: REX }))).toMatchObject({
      exitCode: 2,
      message: 'name is too long (HTTP 400, code invalid_body)',
      hint: undefined,
    });
    expect(fake.written).toEqual({ stdout: '', stderr: '' });
  });

  test('a 401 exits 4', async () => {
    const fake = fakeClientFactory();
    fake.answer('POST', '/v1/pets', 401, JSON.stringify(errorBody(401, 'unauthorized', 'bad key')));
    expect(await thrownBy(runCommand(fake.f, ADD, { flags: REX }))).toMatchObject({ exitCode: 4 });
  });

  test('a POST is not retried after a 503: the pet is never created twice', async () => {
    const fake = fakeClientFactory({ globals: { retries: 2 } });
    fake.answer('POST', '/v1/pets', 503, JSON.stringify(errorBody(503, 'unavailable', 'try later')));
    expect(await thrownBy(runCommand(fake.f, ADD, { flags: REX }))).toMatchObject({
      exitCode: 1,
      message:
        'the pet may have been created: the service answered HTTP 503 (unavailable: try later), which does not say whether it stored the pet',
      hint: 'petstore does not send it again. See whether a pet named "Rex" in category 1 is in the store before adding it again:\n  petstore list --all --format tsv',
    });
    expect(fake.requests).toHaveLength(1);
  });

  test.each([
    ['abc', 'must be an integer written as decimal digits'],
    ['1.5', 'must be an integer written as decimal digits'],
    ['1e3', 'must be an integer written as decimal digits'],
    ['', 'must be an integer written as decimal digits'],
    ['9223372036854775808', 'must be at most 9223372036854775807'],
    ['-9223372036854775809', 'must be at least -9223372036854775808'],
  ])('rejects --category-id "%s" with exit 2 and sends nothing', async (id, why) => {
    expect(await parseCommand(newAddCommand, ['add', '--name', 'Rex', `--category-id=${id}`])).toEqual(
      refusedBeforeRun(`invalid value for --category-id: "${id}": ${why}`),
    );
  });

  test('rejects an empty --name and an unknown --status', async () => {
    expect(await parseCommand(newAddCommand, ['add', '--name=', '--category-id', '1'])).toEqual(
      refusedBeforeRun('invalid value for --name: "": must not be empty'),
    );
    expect(await parseCommand(newAddCommand, ['add', '--name', 'Rex', '--category-id', '1', '--status', 'gone'])).toEqual(
      refusedBeforeRun('invalid value for --status: "gone": allowed values: available, pending, sold'),
    );
  });
});
