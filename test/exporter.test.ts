// The run's one output exporter (src/output/exporter.ts), made by the Factory
// from --json, the command's --format and --jq, and the terminal: the choice
// of format for every shape, what it prints, and the conflicts that exit 2.
// In-process, through the Factory with fake IO streams.
import { Command } from '@commander-js/extra-typings';
import { describe, expect, test } from 'vitest';
import { ExitCode, UsageError } from '../src/errors.js';
import { Factory } from '../src/factory.js';
import { withOutputFlags } from '../src/commands/kit.js';
import type { Exporter } from '../src/output/exporter.js';
import type { OutputShape } from '../src/output/format.js';
import type { View } from '../src/output/render.js';
import { PET_VIEW, viewOfKeys } from '../src/output/views.js';
import { buildProgram } from '../src/program.js';
import { run } from './helpers.js';
import { capturedStreams } from './support/fake-client.js';

interface Setup {
  json?: boolean;
  format?: string;
  jq?: string;
  tty?: boolean;
}

/** A Factory over captured streams whose globals are set as the program sets them, and what it wrote. */
function factory({ json = false, format, jq, tty = false }: Setup = {}) {
  const written = { stdout: '', stderr: '' };
  const f = newFactory(tty, written);
  f.setGlobals({ json, color: false, timeout: 30_000, retries: 0, verbose: false }, { format, jq });
  return { f, written };
}

function newFactory(tty: boolean, written: { stdout: string; stderr: string }): Factory {
  const io = capturedStreams(written, tty);
  const never = new AbortController().signal;
  return new Factory(io, {}, { stop: never, halt: never }, '1.2.3');
}

/** The format chosen for `shape`, or the UsageError's message and exit code. */
function choice(setup: Setup, shape: OutputShape): string | { error: string; exitCode: number } {
  try {
    const spec = factory(setup).f.exporter.choose(shape);
    return spec.jq === undefined ? spec.format : `${spec.format} | jq ${spec.jq}`;
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return { error: error.message, exitCode: error.exitCode };
  }
}

const SHAPES: OutputShape[] = ['records', 'record', 'fields', 'stream'];

describe('the format chosen for each shape', () => {
  test.each([
    // shape, on a terminal, piped
    ['records', 'table', 'tsv'],
    ['record', 'kv', 'tsv'],
    ['fields', 'kv', 'kv'],
    ['stream', 'tsv', 'tsv'],
  ] as const)('%s without output flags: %s on a terminal, %s piped', (shape, onTerminal, piped) => {
    expect(choice({ tty: true }, shape)).toBe(onTerminal);
    expect(choice({ tty: false }, shape)).toBe(piped);
  });

  test.each(SHAPES)('%s with --json: JSON on a terminal and piped (a stream one value a line)', (shape) => {
    const json = shape === 'stream' ? 'ndjson' : 'json';
    expect(choice({ json: true, tty: true }, shape)).toBe(json);
    expect(choice({ json: true, tty: false }, shape)).toBe(json);
  });

  test.each(SHAPES)('%s with --jq: JSON through the expression, with or without --json', (shape) => {
    const json = shape === 'stream' ? 'ndjson' : 'json';
    for (const tty of [true, false]) {
      expect(choice({ jq: '.name', tty }, shape)).toBe(`${json} | jq .name`);
      expect(choice({ jq: '.name', json: true, tty }, shape)).toBe(`${json} | jq .name`);
    }
  });

  test.each(['table', 'kv', 'tsv', 'json', 'ndjson'])(
    '--format %s is that format for every shape but a stream, terminal or not',
    (format) => {
      for (const shape of SHAPES.filter((s) => s !== 'stream')) {
        expect(choice({ format, tty: true }, shape)).toBe(format);
        expect(choice({ format, tty: false }, shape)).toBe(format);
      }
    },
  );

  test('a stream takes --format tsv and ndjson, and no whole-document format', () => {
    expect(choice({ format: 'tsv' }, 'stream')).toBe('tsv');
    expect(choice({ format: 'ndjson', tty: true }, 'stream')).toBe('ndjson');
    for (const format of ['table', 'kv', 'json']) {
      expect(choice({ format }, 'stream')).toEqual({
        error: `invalid value for --format: "${format}": allowed values: tsv, ndjson`,
        exitCode: ExitCode.usage,
      });
    }
  });

  test('--format json and ndjson go with --json and --jq', () => {
    expect(choice({ format: 'ndjson', json: true }, 'records')).toBe('ndjson');
    expect(choice({ format: 'json', jq: '.[0]' }, 'records')).toBe('json | jq .[0]');
    expect(choice({ format: 'ndjson', jq: '.id', json: true, tty: true }, 'record')).toBe('ndjson | jq .id');
    expect(choice({ format: 'ndjson', jq: '.id' }, 'stream')).toBe('ndjson | jq .id');
  });
});

describe('conflicts exit 2 and name the flags', () => {
  test.each(['table', 'kv', 'tsv'])('--json or --jq with --format %s', (format) => {
    for (const shape of SHAPES.filter((s) => s !== 'stream')) {
      expect(choice({ json: true, format }, shape)).toEqual({
        error: `--json and --format ${format} ask for different formats; give one of them`,
        exitCode: 2,
      });
      // --jq is named when both are given: it is the one that needs JSON to work on.
      for (const json of [false, true]) {
        expect(choice({ jq: '.', json, format, tty: true }, shape)).toEqual({
          error: `--jq and --format ${format} ask for different formats; give one of them`,
          exitCode: 2,
        });
      }
    }
    expect(choice({ json: true, format: 'tsv' }, 'stream')).toEqual({
      error: '--json and --format tsv ask for different formats; give one of them',
      exitCode: 2,
    });
  });

  test('a format that does not exist, with the allowed values (checked before any conflict)', () => {
    expect(choice({ format: 'xml', json: true }, 'records')).toEqual({
      error: 'invalid value for --format: "xml": allowed values: table, kv, tsv, json, ndjson',
      exitCode: 2,
    });
  });

  test('through the whole program: exit 2, the message on stderr, nothing sent', async () => {
    expect(await run(['config', 'list', '--format', 'kv', '--jq', '.'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: --jq and --format kv ask for different formats; give one of them\n',
      unmatched: [],
    });
    expect(await run(['auth', 'status', '--json', '--format', 'table'])).toEqual({
      code: 2,
      stdout: '',
      stderr: '{"code":"invalid_usage","message":"--json and --format table ask for different formats; give one of them","status":null}\n',
      unmatched: [],
    });
    const r = await run(['get', '1', '--format', 'yaml', '--json']);
    expect({ code: r.code, stdout: r.stdout, unmatched: r.unmatched }).toEqual({ code: 2, stdout: '', unmatched: [] });
    expect(JSON.parse(r.stderr)).toMatchObject({
      code: 'invalid_usage',
      message: 'invalid value for --format: "yaml": allowed values: table, kv, tsv, json, ndjson',
    });
  });
});

describe('what the exporter prints', () => {
  const PET = { id: 1, name: 'Rex', categoryId: 2, status: 'available' };
  /** A whole list, as the runner prints one: every item through the exporter's list printer. */
  const printList = async (exporter: Exporter, items: Record<string, unknown>[], view: View) => {
    const printer = exporter.pages(view);
    await printer.add(items);
    await printer.end();
  };

  test('a list on a terminal is a table, piped tab-separated rows, with --json the array', async () => {
    const terminal = factory({ tty: true });
    terminal.f.exporter.choose('records');
    await printList(terminal.f.exporter, [PET], PET_VIEW);
    expect(terminal.written.stdout).toMatch(/^┌─+┬[^\n]*\n│ ID │ NAME │ CATEGORY ID │ STATUS +│\n├/);
    expect(terminal.written.stdout).toContain('│ 1  │ Rex  │ 2           │');

    const piped = factory();
    piped.f.exporter.choose('records');
    await printList(piped.f.exporter, [PET], PET_VIEW);
    expect(piped.written.stdout).toBe('1\tRex\t2\tavailable\n');

    const json = factory({ json: true, tty: true });
    json.f.exporter.choose('records');
    await printList(json.f.exporter, [PET, { ...PET, id: 9007199254740993n }], PET_VIEW);
    expect(json.written.stdout).toBe(
      '[{"id":1,"name":"Rex","categoryId":2,"status":"available"},{"id":9007199254740993,"name":"Rex","categoryId":2,"status":"available"}]\n',
    );
  });

  test('fields piped: key/value lines of the view', async () => {
    const { f, written } = factory();
    f.exporter.choose('fields');
    await f.exporter.printOne({ environment: 'production', baseUrl: null }, viewOfKeys(['environment', 'baseUrl']));
    expect(written.stdout).toBe('Environment\tproduction\nBase URL\t-\n');
  });

  test('pages print as they come in a format that streams, the same bytes as the whole list', async () => {
    const { f, written } = factory({ format: 'json' });
    f.exporter.choose('records');
    const printer = f.exporter.pages(PET_VIEW);
    await printer.add([PET]);
    expect(written.stdout).toBe('[{"id":1,"name":"Rex","categoryId":2,"status":"available"}');
    await printer.add([{ ...PET, id: 2 }]);
    await printer.end();
    expect(JSON.parse(written.stdout)).toEqual([PET, { ...PET, id: 2 }]);
  });

  test('a stream: tab-separated rows, or one JSON value a line with --json', () => {
    const tsv = factory().f.exporter;
    tsv.choose('stream');
    expect(tsv.streamText([PET], PET_VIEW)).toBe('1\tRex\t2\tavailable\n');
    const ndjson = factory({ json: true }).f.exporter;
    ndjson.choose('stream');
    expect(ndjson.streamText([PET, PET], PET_VIEW)).toBe(`${JSON.stringify(PET)}\n${JSON.stringify(PET)}\n`);
  });

  test('--jq prints the results of the expression over the JSON, strings raw', async () => {
    const { f, written } = factory({ jq: '.[].name', tty: true });
    f.exporter.choose('records');
    await printList(f.exporter, [PET, { ...PET, name: 'Tom' }], PET_VIEW);
    expect(written.stdout).toBe('Rex\nTom\n');
  });

  test('text as received: escape sequences removed on a terminal only', () => {
    const text = 'HTTP/1.1 200 OK\nx-note: \u001b[31mred\u001b[0m\n\n';
    const terminal = factory({ tty: true });
    terminal.f.exporter.writeText(text);
    expect(terminal.written.stdout).toBe('HTTP/1.1 200 OK\nx-note: red\n\n');
    const piped = factory();
    piped.f.exporter.writeText(text);
    expect(piped.written.stdout).toBe(text);
  });

  test('printing before the format is chosen, or reading the exporter before the flags are parsed, is a bug', async () => {
    expect(() => factory().f.exporter.streamText([PET], PET_VIEW)).toThrow('output printed before its format was chosen');
    await expect(printList(factory().f.exporter, [PET], PET_VIEW)).rejects.toThrow('output printed before its format was chosen');
    expect(() => newFactory(false, { stdout: '', stderr: '' }).exporter).toThrow('output read before the command line was parsed');
  });
});

describe('the program hands the Factory the parsed flags', () => {
  /** Parses `argv` with the program plus a command printing `shape` that records its exporter's choice. */
  async function parsed(argv: string[], shape: OutputShape, tty = false) {
    const f = newFactory(tty, { stdout: '', stderr: '' });
    const program = await buildProgram(f, 'probe');
    let chosen: unknown;
    program.addCommand(
      withOutputFlags(new Command('probe'), shape).action(() => {
        chosen = f.exporter.choose(shape);
      }),
    );
    await program.parseAsync(argv, { from: 'user' });
    return chosen;
  }

  test("--json anywhere, and the command's --format and --jq", async () => {
    expect(await parsed(['probe'], 'records', true)).toEqual({ format: 'table' });
    expect(await parsed(['--json', 'probe'], 'records', true)).toEqual({ format: 'json' });
    expect(await parsed(['probe', '--json', '--format', 'ndjson'], 'records')).toEqual({ format: 'ndjson' });
    expect(await parsed(['probe', '--jq', '.[0]', '--format=json'], 'record')).toEqual({ format: 'json', jq: '.[0]' });
    await expect(parsed(['probe', '--jq', '.', '--format', 'tsv'], 'records')).rejects.toThrow(
      '--jq and --format tsv ask for different formats; give one of them',
    );
  });

  test('the one parse reads the global flags wherever they stand, so that its own errors follow --json', async () => {
    // A value flag at the end without its value: --json before it counts.
    const missing = await run(['--json', 'list', '--timeout']);
    expect(missing).toMatchObject({ code: 2, stdout: '' });
    expect(JSON.parse(missing.stderr)).toEqual({
      code: 'missing_flag_value',
      message:
        'global flag "--timeout" needs a value <ms>: deadline in milliseconds: of the command, of each page of a whole listing, of each request of add --file',
      status: null,
      hint: 'For its flags, run:\n  petstore --help',
    });
    // A value flag takes the next word, whatever it is: --env --json names an environment, and the error is plain.
    expect(await run(['--env', '--json', 'list', '--bogus'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: unknown flag "--bogus" for "petstore list"\nFor its flags, run:\n  petstore list --help\n',
      unmatched: [],
    });
  });

  test('an unknown flag followed by --json is reported as JSON', async () => {
    const r = await run(['list', '--bogus', '--json']);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stderr)).toEqual({
      code: 'unknown_flag',
      message: 'unknown flag "--bogus" for "petstore list"',
      status: null,
      hint: 'For its flags, run:\n  petstore list --help',
    });
  });

  test('the suggestion for a mistyped flag: in the message, as for a mistyped command, in plain output and in JSON', async () => {
    const plain = await run(['list', '--stauts', 'available']);
    expect(plain).toMatchObject({ code: 2, stdout: '' });
    expect(plain.stderr).toBe(
      'error: unknown flag "--stauts" for "petstore list"; did you mean "--status"?\nFor its flags, run:\n  petstore list --help\n',
    );
    const r = await run(['list', '--stauts', 'available', '--json']);
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr.endsWith('\n') && r.stderr.indexOf('\n') === r.stderr.length - 1).toBe(true);
    expect(JSON.parse(r.stderr)).toEqual({
      code: 'unknown_flag',
      message: 'unknown flag "--stauts" for "petstore list"; did you mean "--status"?',
      status: null,
      hint: 'For its flags, run:\n  petstore list --help',
    });
  });
});
