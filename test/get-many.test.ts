// get of several ids (issue 37 items 1 to 3, 5): ids on the command line and on standard input, each output format, repeats,
// exact ids, whitespace and bad words, the window and --concurrency; in-process against the fake service.
import { PassThrough, Readable } from 'node:stream';
import { afterEach, describe, expect, test } from 'vitest';
import { type PetService, type PetServiceOptions, type Recorded, startPetService, toJson } from '../sandbox/pet-service.mjs';
import { type RunSetup, run, until, wrapped } from './helpers.js';
import { TABLE_OF_1, TABLE_OF_2_3 } from './support/get-tables.js';

let service: PetService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

/** The fake service with 20 generated pets (`pet-1`...), or as `options` say. */
async function serve(options: Partial<PetServiceOptions> = {}): Promise<PetService> {
  service = await startPetService({ key: 'k', seed: 20, ...options });
  return service;
}

const env = (extra: NodeJS.ProcessEnv = {}) => ({
  PETSTORE_BASE_URL: service!.baseUrl,
  PETSTORE_API_KEY: 'k',
  PETSTORE_NO_DEPRECATION_WARNING: '1',
  ...extra,
});
const get = (args: string[], setup: RunSetup = {}) => run(['get', ...args], { ...setup, env: { ...env(), ...setup.env } });
/** The pet `id` of the service, as its JSON answer carries it. */
const json = (id: number | bigint) => toJson(service!.pets.get(BigInt(id)));
const row = (id: number | bigint) => {
  const pet = service!.pets.get(BigInt(id))!;
  return `${pet.id}\t${pet.name}\t${pet.categoryId}\t${pet.status}\n`;
};
/** The ids of the getPet requests the service saw, in order. */
const getPets = () => service!.requests.map((r: Recorded) => /^\/v1\/pets\/(-?\d+)$/.exec(r.url)?.[1]).filter(Boolean);

const WARNING =
  'warning: getPet is deprecated, removed 2030-12-05; get then reads listPets pages\nPETSTORE_NO_DEPRECATION_WARNING=1 silences this warning\n';

describe('several ids on the command line', () => {
  test('one record per id in the order given: rows piped, one JSON array with --json, a line each with ndjson', async () => {
    await serve();
    expect(await get(['3', '1', '2'])).toMatchObject({ code: 0, stdout: row(3) + row(1) + row(2), stderr: '' });
    expect(await get(['3', '1', '2', '--json'])).toMatchObject({ code: 0, stdout: `[${json(3)},${json(1)},${json(2)}]\n`, stderr: '' });
    expect(await get(['3', '1', '--format', 'ndjson'])).toMatchObject({ code: 0, stdout: `${json(3)}\n${json(1)}\n`, stderr: '' });
    // The service's answer as petstore prints it: exactly as sent.
    expect(json(3)).toBe('{"id":3,"name":"pet-3","categoryId":3,"status":"sold"}');
  });

  test('key/value blocks and one table, in the order given; a table at a terminal by default', async () => {
    await serve();
    expect((await get(['2', '1', '--format', 'kv'])).stdout).toBe(
      'id\t2\nname\tpet-2\ncategoryId\t2\nstatus\tpending\n\nid\t1\nname\tpet-1\ncategoryId\t1\nstatus\tavailable\n',
    );
    const table = [
      '┌────┬───────┬─────────────┬───────────┐',
      '│ ID │ NAME  │ CATEGORY ID │ STATUS    │',
      '├────┼───────┼─────────────┼───────────┤',
      '│ 2  │ pet-2 │ 2           │ pending   │',
      '│ 1  │ pet-1 │ 1           │ available │',
      '└────┴───────┴─────────────┴───────────┘',
      '',
    ].join('\n');
    expect((await get(['2', '1', '--format', 'table'])).stdout).toBe(table);
    expect((await get(['2', '1', '--no-color'], { stdoutIsTTY: true, columns: 80 })).stdout).toBe(table);
  });

  test('a repeated id is fetched once and printed each time it is given', async () => {
    await serve();
    const r = await get(['4', '5', '4', '4', '--format', 'ndjson']);
    expect(r).toMatchObject({ code: 0, stdout: `${json(4)}\n${json(5)}\n${json(4)}\n${json(4)}\n`, stderr: '' });
    expect(getPets().sort()).toEqual(['4', '5']);
  });

  test('ids above 2^53 stay exact, in the request and the output', async () => {
    await serve({ firstId: 9007199254740993n, seed: 3 });
    const r = await get(['9007199254740995', '9007199254740993', '--json']);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toBe(
      '[{"id":9007199254740995,"name":"pet-3","categoryId":3,"status":"sold"},{"id":9007199254740993,"name":"pet-1","categoryId":1,"status":"available"}]\n',
    );
    expect(getPets()).toEqual(['9007199254740995', '9007199254740993']);
  });

  test('answers that come out of order still print in the order given', async () => {
    const later = until(() => (service?.requests.length ?? 0) >= 3);
    await serve({ faults: (request) => (request.url === '/v1/pets/1' ? { serve: true, until: later } : undefined) });
    expect(await get(['1', '2', '3'])).toMatchObject({ code: 0, stdout: row(1) + row(2) + row(3) });
  });

  test('--jq filters the JSON array; with --format ndjson, each pet', async () => {
    await serve();
    expect(await get(['2', '1', '--jq', '[.[].name] | join(",")'])).toMatchObject({ code: 0, stdout: 'pet-2,pet-1\n' });
    expect(await get(['2', '1', '--format', 'ndjson', '--jq', '.categoryId'])).toMatchObject({ code: 0, stdout: '2\n1\n' });
  });

  test('the deprecation warning appears once for the run, each of its lines within 100 columns wherever stderr goes', async () => {
    await serve();
    for (const setup of [{}, { stdoutIsTTY: true, columns: 200 }, { stdoutIsTTY: true, columns: 60 }]) {
      const r = await get(['1', '2', '3', '4'], { env: { PETSTORE_NO_DEPRECATION_WARNING: '' }, ...setup });
      expect(r.code).toBe(0);
      expect(r.stderr.match(/getPet is deprecated/g)).toHaveLength(1);
      for (const line of r.stderr.split('\n')) expect(line.length).toBeLessThanOrEqual(100);
    }
    expect((await get(['1', '2'], { env: { PETSTORE_NO_DEPRECATION_WARNING: '' } })).stderr).toBe(WARNING);
    const json = await get(['1', '2', '--json'], { env: { PETSTORE_NO_DEPRECATION_WARNING: '' } });
    expect(
      json.stderr
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual([
      {
        warning: 'getPet is removed on 2030-12-05',
        code: 'deprecated_operation',
        hint: 'see get --help',
      },
    ]);
  });

  test('a Deprecation header warns once for the run; PETSTORE_NO_DEPRECATION_WARNING=1 silences it too', async () => {
    const withHeader = (request: Recorded) => {
      const id = /^\/v1\/pets\/(\d+)$/.exec(request.url)?.[1];
      return id ? { status: 200, json: service!.pets.get(BigInt(id)), headers: { deprecation: 'true' } } : undefined;
    };
    await serve({ faults: withHeader });
    const headers = (await get(['1', '2', '3'], { env: { PETSTORE_NO_DEPRECATION_WARNING: '' } })).stderr;
    expect(headers.match(/the service says this endpoint is deprecated/g)).toHaveLength(1);
    expect(await get(['1', '2', '3'])).toMatchObject({ code: 0, stderr: '' });
  });

  test('a word that is not an int64 among the ids: exit 2 naming it, nothing sent', async () => {
    await serve();
    expect(await get(['1', 'abc', '2'])).toMatchObject({
      code: 2,
      stdout: '',
      stderr: wrapped('error: invalid value for argument <petId>: "abc": must be an integer written as decimal digits\n'),
    });
    expect(service!.requests).toEqual([]);
  });
});

describe('get -: ids from standard input', () => {
  test('separated by any whitespace: spaces, tabs, CRLF, blank lines, none at the end', async () => {
    await serve();
    const r = await get(['-'], { stdin: ' 1\t2\r\n\r\n\n  3 \u00a05\n4' });
    expect(r).toMatchObject({ code: 0, stdout: row(1) + row(2) + row(3) + row(5) + row(4), stderr: '' });
  });

  test('words and line ends split across reads: a word is whole whichever chunk ends it', async () => {
    await serve();
    const chunks = ['1', '2\r', '\n3 ', '\n\n', '1', '\t', 'x', 'y\n4'].map((text) => Buffer.from(text));
    const r = await get(['-'], { stdin: Readable.from(chunks) });
    expect(r).toMatchObject({ code: 1, stdout: row(12) + row(3) + row(1) + row(4) });
    expect(r.stderr).toContain('warning: line 4: "xy" is not a pet id');
  });

  test('at a terminal: a table (drawn per 1,000 pets, when the input does not pause); what is typed is read, Ctrl-D ending it, as a notice says', async () => {
    await serve({ seed: 1001 });
    const ids = Array.from({ length: 1001 }, (_, i) => i + 1).join(' ');
    const r = await get(['-', '--no-color'], { stdin: ids, stdoutIsTTY: true, stdinIsTTY: true, columns: 80 });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('reading pet ids from the terminal, one or more a line; Ctrl-D ends the input\n');
    const tables = r.stdout.split('┌');
    expect(tables).toHaveLength(3);
    expect(tables[1]!.split('\n').filter((line) => line.startsWith('│ ') && !line.startsWith('│ ID'))).toHaveLength(1000);
    expect(tables[2]).toContain('│ 1001 │ pet-1001 │');
  });

  test.each<[string, string[], RunSetup]>([
    ['typed at a terminal', ['--no-color'], { stdinIsTTY: true, stdoutIsTTY: true, columns: 80 }],
    ['piped, stdout a terminal', ['--no-color'], { stdoutIsTTY: true, columns: 80 }],
    ['piped, --format table into a pipe', ['--format', 'table'], {}],
    ['through listPets (PETSTORE_GET_VIA_LIST=1)', ['--no-color'], { stdoutIsTTY: true, env: { PETSTORE_GET_VIA_LIST: '1' } }],
  ])('a table each time the input pauses (%s): each answer shows before the next id is given', async (_, flags, setup) => {
    await serve();
    const input = new PassThrough();
    let stdout = '';
    const running = get(['-', ...flags], { ...setup, stdin: input, onStdout: (text) => (stdout += text) });
    // A table per pause, each as wide as its own rows need.
    const first = `${TABLE_OF_1.join('\n')}\n`;
    const second = `${TABLE_OF_2_3.join('\n')}\n`;
    input.write('1\n');
    await until(() => stdout === first);
    input.write('2 3\n');
    await until(() => stdout === first + second);
    input.end();
    expect(await running).toMatchObject({ code: 0, stdout: first + second });
  });

  test('--jq over standard input: on the array of all the pets; with --format ndjson, on each as it comes', async () => {
    await serve();
    expect(await get(['-', '--jq', 'length'], { stdin: '1 2 3' })).toMatchObject({ code: 0, stdout: '3\n' });
    expect(await get(['-', '--format', 'ndjson', '--jq', '.name'], { stdin: '3 1' })).toMatchObject({ code: 0, stdout: 'pet-3\npet-1\n' });
  });

  test('a word that is not an int64 is named with its line and gets no request; the others go on; exit 1', async () => {
    await serve();
    const long = '1'.repeat(45);
    const r = await get(['-'], { stdin: `1\nabc 2\n\n9223372036854775808\r\n${long} 3 -\n` });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(row(1) + row(2) + row(3));
    expect(r.stderr).toBe(
      wrapped(
        'warning: line 2: "abc" is not a pet id: must be an integer written as decimal digits; not sent\n' +
          'warning: line 4: "9223372036854775808" is not a pet id: must be at most 9223372036854775807; not sent\n' +
          `warning: line 5: "${'1'.repeat(40)}…" is not a pet id: must be an integer written as decimal digits (an int64 has at most 19); not sent\n` +
          'warning: line 5: "-" is not a pet id: must be an integer written as decimal digits; not sent\n' +
          'error: 4 of 7 ids not printed (4 not a pet id); 3 pets printed\n',
      ),
    );
    expect(getPets()).toEqual(['1', '2', '3']);
  });

  test('with --json: every line of stderr is JSON, the bad word with its line; the array on stdout', async () => {
    await serve();
    const r = await get(['-', '--json'], { stdin: '2\nx1\n' });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toEqual([JSON.parse(json(2))]);
    expect(
      r.stderr
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual([
      {
        warning: 'line 2: "x1" is not a pet id: must be an integer written as decimal digits; not sent',
        code: 'invalid_id',
        line: 2,
        text: 'x1',
      },
      {
        code: 'not_all_printed',
        message: '1 of 2 ids not printed (1 not a pet id); 1 pet printed',
        status: null,
        read: 2,
        printed: 1,
        missing: [],
        notFound: 0,
        invalid: 1,
        failed: 0,
      },
    ]);
  });

  test('prints records whatever number of ids comes: one id is an array of one with --json; none, an empty array', async () => {
    await serve();
    expect(await get(['-', '--json'], { stdin: '5\n' })).toMatchObject({ code: 0, stdout: `[${json(5)}]\n`, stderr: '' });
    expect(await get(['-', '--json'], { stdin: ' \n\n' })).toMatchObject({ code: 0, stdout: '[]\n', stderr: '' });
    expect(await get(['-'], { stdin: '' })).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(service!.requests).toHaveLength(1);
  });

  test('output starts before the input ends', async () => {
    await serve();
    const input = new PassThrough();
    let stdout = '';
    const running = get(['-', '--format', 'ndjson'], { stdin: input, onStdout: (text) => (stdout += text) });
    input.write('1\n2');
    input.write('\n');
    await until(() => stdout === `${json(1)}\n${json(2)}\n`);
    input.end('3\n');
    expect(await running).toMatchObject({ code: 0, stdout: `${json(1)}\n${json(2)}\n${json(3)}\n`, stderr: '' });
  });

  test('ids held are bounded: while the first answer is held, at most 32 per request in flight (256) are read and sent', async () => {
    let pulled = 0;
    const whenFull = { pulled: 0, requests: 0 };
    const full = until(() => (service?.requests.length ?? 0) >= 256).then(() =>
      Object.assign(whenFull, { pulled, requests: service!.requests.length }),
    );
    await serve({ seed: 600, faults: (request) => (request.url === '/v1/pets/1' ? { serve: true, until: full } : undefined) });
    const ids = Readable.from(
      (function* () {
        for (let id = 1; id <= 600; id += 1) {
          pulled += 1;
          yield `${id}\n`;
        }
      })(),
    );
    const r = await get(['-', '--format', 'ndjson'], { stdin: ids });
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')).toHaveLength(601);
    // The window is full at 256 ids (8 x 32), the first held: nothing more is sent, and input is read only as far as the
    // 257th id and what the stream reads ahead (16 chunks), not to its end.
    expect(whenFull.requests).toBe(256);
    expect(whenFull.pulled).toBeLessThan(300);
  });

  test.each([1, 3, 8])('--concurrency %i: requests in flight never above it, and as many as it allows', async (concurrency) => {
    const total = 30;
    // Each request waits until the client has as many in flight as it allows, or has sent them all.
    const gate = () => until(() => service!.inFlight >= concurrency || service!.requests.length === total);
    await serve({ seed: total, faults: () => ({ serve: true, until: gate() }) });
    const ids = Array.from({ length: total }, (_, i) => i + 1);
    const args = concurrency === 8 ? [] : ['--concurrency', String(concurrency)];
    const r = await get(['-', ...args], { stdin: ids.join('\n') });
    expect(r).toMatchObject({ code: 0, stdout: ids.map(row).join(''), stderr: '' });
    expect(service!.maxInFlight).toBe(concurrency);
  });
});
