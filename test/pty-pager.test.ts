// The pager, on a real terminal: data of list, get, api, config list and
// auth status goes through PETSTORE_PAGER, else PAGER, else `less -FRX`; never when
// stdout is not the terminal; PETSTORE_PAGER= or cat turns it off. A fake
// pager (a script) records its arguments and input, then says it is done;
// stderr lines written meanwhile come after it.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { startPetService, type PetService } from '../sandbox/pet-service.mjs';
import { runsHere, until } from './helpers.js';
import { plain, quote, runInPty, tempDir } from './pty.js';

let server: PetService | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const FAKE_PAGER = `#!/bin/sh
printf '%s\\n' "$@" > "$PAGER_RECORD/args"
printf 'LESS=%s\\n' "$LESS" > "$PAGER_RECORD/env"
cat > "$PAGER_RECORD/input"
echo '[pager done]'
`;

/** A folder holding an executable fake pager named `name`; what it hears is recorded in the same folder. */
function fakePager(name = 'pager'): { dir: string; file: string; record: (what: 'args' | 'env' | 'input') => string | undefined } {
  const dir = tempDir();
  const file = path.join(dir, name);
  fs.writeFileSync(file, FAKE_PAGER, { mode: 0o755 });
  const record = (what: string) => (fs.existsSync(path.join(dir, what)) ? fs.readFileSync(path.join(dir, what), 'utf8') : undefined);
  return { dir, file, record };
}

async function serve(pets = 2): Promise<NodeJS.ProcessEnv> {
  server = await startPetService({
    key: 'k',
    seed: Array.from({ length: pets }, (_, i) => ({ name: `Pet${i + 1}`, categoryId: 1, status: 'sold' as const })),
  });
  return { PETSTORE_BASE_URL: server.baseUrl, PETSTORE_API_KEY: 'k', PETSTORE_NO_DEPRECATION_WARNING: '1' };
}

const TABLE = [
  '┌────┬──────┬─────────────┬────────┐',
  '│ ID │ NAME │ CATEGORY ID │ STATUS │',
  '├────┼──────┼─────────────┼────────┤',
  '│ 1  │ Pet1 │ 1           │ sold   │',
  '│ 2  │ Pet2 │ 1           │ sold   │',
  '└────┴──────┴─────────────┴────────┘',
];

describe('data at a terminal goes through the pager', () => {
  test('PETSTORE_PAGER (split into words as a shell would): the table is its input; a warning comes after the pager has exited', async () => {
    const env = await serve(3);
    const pager = fakePager();
    const run = runInPty(['list', '--limit', '2'], {
      env: { ...env, PAGER_RECORD: pager.dir, PETSTORE_PAGER: `${quote(pager.file)} --flag 'two words'` },
      cols: 120,
    });
    expect(await run.exited).toBe(0);
    expect(pager.record('args')).toBe('--flag\ntwo words\n');
    expect(plain(pager.record('input')!)).toBe(`${TABLE.join('\n')}\n`);
    // Colours reach the pager, as they would reach the terminal.
    expect(pager.record('input')).toContain('\u001b[1mID');
    expect(await run.text()).toEqual([
      '[pager done]',
      'warning: showing one page of 2 pets; the service has more: --all fetches every page',
    ]);
  });

  test('PAGER when PETSTORE_PAGER is not set', async () => {
    const env = await serve();
    const pager = fakePager();
    const run = runInPty(['list'], { env: { ...env, PAGER_RECORD: pager.dir, PETSTORE_PAGER: undefined, PAGER: pager.file } });
    expect(await run.exited).toBe(0);
    expect(plain(pager.record('input')!)).toBe(`${TABLE.join('\n')}\n`);
    expect(await run.text()).toEqual(['[pager done]']);
  });

  test('neither set: less -FRX, with LESS=FRX for a less without options', async () => {
    const env = await serve();
    const pager = fakePager('less');
    const run = runInPty(['list'], {
      env: { ...env, PAGER_RECORD: pager.dir, PETSTORE_PAGER: undefined, PATH: `${pager.dir}:${process.env.PATH}` },
    });
    expect(await run.exited).toBe(0);
    expect(pager.record('args')).toBe('-FRX\n');
    expect(pager.record('env')).toBe('LESS=FRX\n');
    expect(plain(pager.record('input')!)).toBe(`${TABLE.join('\n')}\n`);
  });

  test.each([
    [['get', '1'], 'id:         1\nname:       Pet1\ncategoryId: 1\nstatus:     sold\n'],
    [['get', '1', '--json'], '{"id":1,"name":"Pet1","categoryId":1,"status":"sold"}\n'],
    [['config', 'list', '--format', 'tsv'], 'production\t-\tfalse\t-\nstaging\t-\tfalse\t-\n'],
    [['api', 'pets?limit=1'], '[{"id":1,"name":"Pet1","categoryId":1,"status":"sold"}]\n'],
  ])('%j pages too', async (args, input) => {
    const env = await serve();
    const pager = fakePager();
    const run = runInPty(args, { env: { ...env, PAGER_RECORD: pager.dir, PETSTORE_PAGER: pager.file } });
    expect(await run.exited).toBe(0);
    expect(plain(pager.record('input')!)).toBe(input);
    expect(await run.text()).toEqual(['[pager done]']);
  });

  test('auth status pages its record; its error (a rejected key, exit 4) comes after the pager', async () => {
    const env = await serve();
    const pager = fakePager();
    const run = runInPty(['auth', 'status'], {
      env: { ...env, PETSTORE_API_KEY: 'wrong', PAGER_RECORD: pager.dir, PETSTORE_PAGER: pager.file },
      cols: 120,
    });
    expect(await run.exited).toBe(4);
    expect(plain(pager.record('input')!)).toMatch(/^Environment: +production\n[\s\S]*\nCheck: +rejected \(HTTP 401\)\n$/);
    expect((await run.text()).slice(0, 2)).toEqual(['[pager done]', 'error: the service rejected the key of production (HTTP 401)']);
  });
});

describe('no pager', () => {
  test('when stdout is not the terminal (a file, a pipe), also with --json', async () => {
    const env = await serve();
    const pager = fakePager();
    const out = path.join(pager.dir, 'out.tsv');
    const toFile = runInPty(['list'], {
      env: { ...env, PETSTORE_PAGER: pager.file, PAGER_RECORD: pager.dir },
      shell: `exec $PETSTORE > ${out}`,
    });
    expect(await toFile.exited).toBe(0);
    expect(fs.readFileSync(out, 'utf8')).toBe('1\tPet1\t1\tsold\n2\tPet2\t1\tsold\n');
    const piped = runInPty(['list', '--json'], {
      env: { ...env, PETSTORE_PAGER: pager.file, PAGER_RECORD: pager.dir },
      shell: '$PETSTORE | cat',
      cols: 200,
    });
    expect(await piped.exited).toBe(0);
    expect(await piped.text()).toEqual([
      '[{"id":1,"name":"Pet1","categoryId":1,"status":"sold"},{"id":2,"name":"Pet2","categoryId":1,"status":"sold"}]',
    ]);
    expect(pager.record('input')).toBeUndefined();
  });

  test.each([[''], ['cat'], ['  ']])('PETSTORE_PAGER=%j turns it off, whatever PAGER says', async (value) => {
    const env = await serve();
    const pager = fakePager();
    const run = runInPty(['list'], { env: { ...env, PETSTORE_PAGER: value, PAGER: pager.file, PAGER_RECORD: pager.dir } });
    expect(await run.exited).toBe(0);
    expect(await run.text()).toEqual(TABLE);
    expect(pager.record('input')).toBeUndefined();
  });

  test('a pager that cannot be started: the output printed directly, and a warning naming it', async () => {
    const env = await serve();
    const run = runInPty(['list'], { env: { ...env, PETSTORE_PAGER: '/nonexistent/pager -R' } });
    expect(await run.exited).toBe(0);
    expect(await run.text()).toEqual([...TABLE, 'warning: cannot start the pager "/nonexistent/pager": ENOENT; printing directly']);
  });

  test('a pager that quits before reading (the user pressed q): a quiet end, exit 0, the rest of the command not run', async () => {
    server = await startPetService({
      key: 'k',
      seed: Array.from({ length: 150 }, (_, i) => ({ name: `${i}`.padEnd(3000, 'x'), categoryId: 1 })),
    });
    const env = { PETSTORE_BASE_URL: server.baseUrl, PETSTORE_API_KEY: 'k' };
    // 300 KB of rows: more than a pipe holds, so that writing meets the pager gone (EPIPE). Its warning of more pages is not said.
    const run = runInPty(['list', '--limit', '100', '--format', 'tsv'], { env: { ...env, PETSTORE_PAGER: 'true' }, cols: 120 });
    expect(await run.exited).toBe(0);
    expect(await run.text()).toEqual([]);
  });
});

test('Ctrl-C while a whole listing is read for its table: the rows read go to the pager, then stderr says the table is not the whole listing, exit 130', async () => {
  server = await startPetService({
    key: 'k',
    seed: Array.from({ length: 150 }, (_, i) => ({ name: `Pet${i + 1}`, categoryId: 1 })),
    faults: (_, index) => (index === 1 ? { hang: true } : undefined),
  });
  const pager = fakePager();
  const env = { PETSTORE_BASE_URL: server.baseUrl, PETSTORE_API_KEY: 'k', PAGER_RECORD: pager.dir, PETSTORE_PAGER: pager.file };
  const run = runInPty(['list', '--all'], { env, cols: 120 });
  // Page 2 asked for: page 1's 100 pets are read, and the answer of page 2 never comes.
  await until(() => server!.requests.length === 2);
  run.type('\u0003');
  expect(await run.exited).toBe(130);
  const rows = plain(pager.record('input') ?? '')
    .split('\n')
    .filter((line) => /^│ \d/.test(line));
  expect(rows).toHaveLength(100);
  // The terminal's own echo of Ctrl-C (^C) comes first.
  expect(await run.text()).toEqual(['^C[pager done]', 'interrupted: the table holds only the first 100 pets of the listing']);
});

describe('a pager gone before the end of a whole listing: the listing stops, as at `| head`', () => {
  /** 20 pages of 100 KB each; returns how many page requests reached the service. */
  async function pagesAsked(args: string[], pager: string): Promise<{ code: number; text: string[]; pages: number }> {
    server = await startPetService({
      key: 'k',
      seed: Array.from({ length: 2000 }, (_, i) => ({ name: `${i}`.padEnd(1000, 'x'), categoryId: 1 })),
    });
    const env = { PETSTORE_BASE_URL: server.baseUrl, PETSTORE_API_KEY: 'k', PETSTORE_PAGER: pager };
    const run = runInPty(args, { env, cols: 120 });
    const code = await run.exited;
    return { code, text: await run.text(), pages: server.requests.length };
  }

  // Each page waits for the pager to take the one before: a pager that reads nothing holds at most two pages and a slice.
  test.each([
    ['list --all --format tsv', ['list', '--all', '--format', 'tsv']],
    ['list --all --json', ['list', '--all', '--json']],
    ['api pets --paginate', ['api', 'pets', '--paginate']],
  ])('%s, the pager quit before reading (q): no more pages asked for, nothing said, exit 0', async (_, args) => {
    const { code, text, pages } = await pagesAsked(args, 'true');
    expect({ code, text }).toEqual({ code: 0, text: [] });
    expect(pages).toBeGreaterThanOrEqual(1);
    expect(pages).toBeLessThanOrEqual(5);
  });

  test.each([['--json'], ['--format', 'tsv']])(
    'get of 500 ids %s, the pager quit before reading (q): the run stops, nothing said (no "stopped: ..."), exit 0',
    async (...format) => {
      server = await startPetService({
        key: 'k',
        seed: Array.from({ length: 500 }, (_, i) => ({ name: `${i}`.padEnd(1000, 'x'), categoryId: 1 })),
      });
      const env = {
        PETSTORE_BASE_URL: server.baseUrl,
        PETSTORE_API_KEY: 'k',
        PETSTORE_PAGER: 'true',
        PETSTORE_NO_DEPRECATION_WARNING: '1',
      };
      const ids = Array.from({ length: 500 }, (_, i) => `${i + 1}`);
      const run = runInPty(['get', ...ids, ...format], { env, cols: 120 });
      expect(await run.exited).toBe(0);
      expect(await run.text()).toEqual([]);
    },
  );

  test('get of 500 ids whose pager quits while an id is in flight and later ones are answered: no id is named as passed over', async () => {
    const never = new Promise<void>(() => undefined);
    server = await startPetService({
      key: 'k',
      // Pet 1's 300 KB fill the pipe of a pager that reads nothing.
      seed: Array.from({ length: 500 }, (_, i) => ({ name: i === 0 ? 'x'.repeat(300_000) : `Pet${i + 1}`, categoryId: 1 })),
      faults: (request) => (request.url.endsWith('/pets/2') ? { until: never, serve: true } : undefined),
    });
    const gate = path.join(tempDir(), 'gate');
    const pager = `sh -c "while [ ! -e '${gate}' ]; do sleep 0.01; done"`;
    const env = { PETSTORE_BASE_URL: server.baseUrl, PETSTORE_API_KEY: 'k', PETSTORE_PAGER: pager, PETSTORE_NO_DEPRECATION_WARNING: '1' };
    const ids = Array.from({ length: 500 }, (_, i) => `${i + 1}`);
    const run = runInPty(['get', ...ids, '--format', 'tsv'], { env, cols: 120 });
    // Id 20 asked for: with 8 in flight and id 2 held, the answers of ids 3 to 12 were taken in, behind id 2.
    await until(() => server!.requests.some((request) => request.url.endsWith('/pets/20')));
    fs.writeFileSync(gate, '');
    expect(await run.exited).toBe(0);
    expect(await run.text()).toEqual([]);
  });

  test('the pager failed after reading 600 KB of 2 MB: no more pages asked for, a warning naming it, exit 1', async () => {
    const { code, text, pages } = await pagesAsked(['list', '--all', '--format', 'tsv'], `sh -c "head -c 600000 >/dev/null; exit 3"`);
    expect({ code, text }).toEqual({
      code: 1,
      text: ['warning: the pager "sh" exited with status 3 before the end of the output; what it showed may be incomplete'],
    });
    expect(pages).toBeGreaterThanOrEqual(6);
    expect(pages).toBeLessThanOrEqual(10);
  });
});

describe('no pager where a terminal cannot run one', () => {
  const GET = ['id:         1', 'name:       Pet1', 'categoryId: 1', 'status:     sold'];

  // The pseudo-terminal sets TERM itself: the shell changes it.
  test.each([
    ['TERM=dumb', 'TERM=dumb exec $PETSTORE'],
    ['TERM unset', 'exec env -u TERM $PETSTORE'],
    ['TERM unknown to terminfo', 'TERM=no-such-terminal-42 exec $PETSTORE'],
  ])('%s: the default pager (less) is not started, the output printed directly', async (_, shell) => {
    const env = await serve();
    const pager = fakePager('less');
    const run = runInPty(['get', '1'], {
      env: { ...env, PAGER_RECORD: pager.dir, PETSTORE_PAGER: undefined, PATH: `${pager.dir}:${process.env.PATH}` },
      shell,
    });
    expect(await run.exited).toBe(0);
    expect(await run.text()).toEqual(GET);
    expect(pager.record('input')).toBeUndefined();
  });

  test('TERM=dumb with the real less: nothing waits for RETURN, also PETSTORE_PAGER is not started', async () => {
    const env = await serve();
    const shell = 'TERM=dumb exec $PETSTORE';
    const real = runInPty(['get', '1'], { env: { ...env, PETSTORE_PAGER: undefined, PAGER: undefined }, shell });
    expect(await real.exited).toBe(0);
    expect(await real.text()).toEqual(GET);
    const pager = fakePager();
    const chosen = runInPty(['get', '1'], { env: { ...env, PETSTORE_PAGER: pager.file, PAGER_RECORD: pager.dir }, shell });
    expect(await chosen.exited).toBe(0);
    expect(await chosen.text()).toEqual(GET);
    expect(pager.record('input')).toBeUndefined();
  });

  test('stdin not a terminal (a pipe, /dev/null): no pager', async () => {
    const env = await serve();
    const pager = fakePager();
    for (const shell of ['$PETSTORE < /dev/null', 'echo x | $PETSTORE']) {
      const run = runInPty(['list'], { env: { ...env, PETSTORE_PAGER: pager.file, PAGER_RECORD: pager.dir }, shell });
      expect(await run.exited).toBe(0);
      expect(await run.text()).toEqual(TABLE);
    }
    expect(pager.record('input')).toBeUndefined();
  });
});

describe('a pager that fails loses no output', () => {
  test.each([
    ['false', 'false', 1],
    ["sh -c 'exit 3'", 'sh', 3],
  ])(
    'PETSTORE_PAGER=%s exits non-zero without reading: a warning naming it, the output printed directly, exit 0',
    async (value, name, status) => {
      const env = await serve(3);
      const run = runInPty(['list', '--limit', '2'], { env: { ...env, PETSTORE_PAGER: value }, cols: 120 });
      expect(await run.exited).toBe(0);
      // The warning of list was written while the pager ran, so it comes first.
      expect(await run.text()).toEqual([
        ...TABLE,
        'warning: showing one page of 2 pets; the service has more: --all fetches every page',
        `warning: the pager "${name}" exited with status ${status} before showing the output; printing directly`,
      ]);
    },
  );

  test('a pager that cannot start because it is not executable (EACCES): a warning naming it, the output printed directly', async () => {
    const env = await serve();
    const dir = tempDir();
    const file = path.join(dir, 'pager');
    fs.writeFileSync(file, '#!/bin/sh\ncat\n', { mode: 0o644 });
    const run = runInPty(['list'], { env: { ...env, PETSTORE_PAGER: file }, cols: 120 });
    expect(await run.exited).toBe(0);
    expect(await run.text()).toEqual([...TABLE, `warning: cannot start the pager "${file}": EACCES; printing directly`]);
  });

  test('a pager killed by a signal before reading (SIGKILL): a warning naming it, the output printed directly (it was a quiet quit)', async () => {
    const env = await serve();
    const run = runInPty(['list'], { env: { ...env, PETSTORE_PAGER: 'sh -c "kill -KILL $$"' }, cols: 120 });
    expect(await run.exited).toBe(0);
    expect(await run.text()).toEqual([
      ...TABLE,
      'warning: the pager "sh" was killed by SIGKILL before showing the output; printing directly',
    ]);
  });

  test('a pager that fails after reading output (it may have reached the terminal): a warning naming it, exit 1', async () => {
    server = await startPetService({
      key: 'k',
      seed: Array.from({ length: 950 }, (_, i) => ({ name: `${i}`.padEnd(1000, 'x'), categoryId: 1 })),
    });
    const env = { PETSTORE_BASE_URL: server.baseUrl, PETSTORE_API_KEY: 'k' };
    const dir = tempDir();
    const file = path.join(dir, 'pager');
    // Reads 800 KB of the 950 KB (more than a pipe holds), shows the end of it, and fails.
    fs.writeFileSync(file, `#!/bin/sh\nhead -c 800000 | tail -c 20; echo; echo '[pager failed]'; exit 3\n`, { mode: 0o755 });
    const run = runInPty(['list', '--all', '--limit', '100', '--format', 'tsv'], { env: { ...env, PETSTORE_PAGER: file }, cols: 200 });
    expect(await run.exited).toBe(1);
    const lines = await run.text();
    expect(lines.slice(-2)).toEqual([
      '[pager failed]',
      `warning: the pager "${file}" exited with status 3 before the end of the output; what it showed may be incomplete`,
    ]);
    // Nothing printed again: only what the pager showed.
    expect(lines.join('\n')).not.toContain('949xxx');
  });
});

test('a table of over 1 MB, written at once, whose pager reads 1 MB of it and fails: a warning naming it, exit 1, nothing printed again', async () => {
  // 10,000 rows of 200 columns (2 MB): the names fill the width, so that few pages make the table.
  server = await startPetService({
    key: 'k',
    seed: Array.from({ length: 10_000 }, (_, i) => ({ name: `Pet${i}`.padEnd(160, 'x'), categoryId: 1 })),
  });
  const env = { PETSTORE_BASE_URL: server.baseUrl, PETSTORE_API_KEY: 'k' };
  const run = runInPty(['list', '--all', '--limit', '100'], {
    env: { ...env, PETSTORE_PAGER: `sh -c "head -c 1000000 >/dev/null; echo '[pager failed]'; exit 3"` },
    cols: 200,
  });
  expect(await run.exited).toBe(1);
  const lines = await run.text();
  expect(lines.slice(-1)).toEqual([
    'warning: the pager "sh" exited with status 3 before the end of the output; what it showed may be incomplete',
  ]);
  expect(lines).toContain('[pager failed]');
  expect(lines.join('\n')).not.toContain('│ Pet');
});

const hasLess = (() => {
  try {
    execFileSync('less', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

test.runIf(runsHere(hasLess, 'the real less', 'install less (apt-get install less), then npx vitest run test/pty-pager.test.ts'))(
  'the real less: a long table waits at its prompt; Ctrl-C is left to less; q ends it and petstore exits 0',
  async () => {
    const env = await serve(60);
    const run = runInPty(['list'], { env: { ...env, PETSTORE_PAGER: undefined, PAGER: undefined }, rows: 20 });
    // less's prompt (":", the rest of the line erased) after the page: a Ctrl-C while it still draws makes it skip (":...skipping...").
    await run.waitFor(/│ 16 │[\s\S]*\n:\u001b\[K/);
    // The screen less drew, before the Ctrl-Cs: less repaints on each, and may cut a repaint short where another comes.
    expect((await run.text()).slice(0, 4)).toEqual([
      '┌────┬───────┬─────────────┬────────┐',
      '│ ID │ NAME  │ CATEGORY ID │ STATUS │',
      '├────┼───────┼─────────────┼────────┤',
      '│ 1  │ Pet1  │ 1           │ sold   │',
    ]);
    // Three times: the third would end petstore at once, taking the terminal from under less.
    for (let i = 0; i < 3; i += 1) run.type('\u0003');
    // less flushes what was typed when it takes a Ctrl-C, so a "q" typed at once
    // may be dropped: type it until less has quit.
    let quit = false;
    void run.exited.then(() => (quit = true));
    await until(() => {
      if (!quit) run.type('q');
      return quit;
    });
    expect(await run.exited).toBe(0);
    // Nothing printed again once less has quit: the table's last rows, which less never showed, are nowhere.
    expect(plain(run.output())).not.toContain('│ 60 │');
    expect((await run.text()).join('\n')).not.toContain('│ 60 │');
  },
);

const hasMan = (() => {
  try {
    execFileSync('sh', ['-c', 'command -v man'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe('petstore help man at a terminal: man renders the page (as man petstore would), not a screen of troff', () => {
  const PAGE = fs.readFileSync(new URL('../dist/man/petstore.1', import.meta.url), 'utf8');

  test('man -l - is given the page on its standard input, whatever PETSTORE_PAGER says; nothing else is printed', async () => {
    const man = fakePager('man');
    const run = runInPty(['help', 'man'], { env: { PAGER_RECORD: man.dir, PATH: `${man.dir}:${process.env.PATH}` } });
    expect(await run.exited).toBe(0);
    expect(man.record('args')).toBe('-l\n-\n');
    expect(man.record('input')).toBe(PAGE);
    expect(await run.text()).toEqual(['[pager done]']);
  });

  test('no man on PATH: the troff printed directly, then a warning naming man', async () => {
    // The page is large, and node-pty drops what it has not read 200 ms after the terminal's process exits: the shell around
    // petstore prints a mark after its last byte (an OSC sequence, which the screen ignores) and waits for a line, typed once the
    // mark has been read.
    const done = '\u001b]777;petstore-exited\u0007';
    const shell = `$PETSTORE; status=$?; printf '\\033]777;petstore-exited\\007'; read -r line; exit $status`;
    const run = runInPty(['help', 'man'], { env: { PATH: tempDir() }, rows: 10, shell });
    await run.waitFor(done);
    const output = plain(run.output().slice(0, run.output().indexOf(done))).replaceAll('\r\n', '\n');
    run.type('\r');
    expect(await run.exited).toBe(0);
    expect(output.startsWith(PAGE)).toBe(true);
    expect(output.slice(PAGE.length)).toBe('warning: cannot start the pager "man": ENOENT; printing directly\n');
  });

  test.runIf(runsHere(hasMan, 'man', 'install man-db (apt-get install man-db), then npx vitest run test/pty-pager.test.ts'))(
    'the real man: the rendered page (PETSTORE(1), NAME), no troff',
    async () => {
      const run = runInPty(['help', 'man'], { env: { MANPAGER: 'cat', PAGER: 'cat', MANWIDTH: '80' }, rows: 10 });
      expect(await run.exited).toBe(0);
      const lines = await run.text();
      expect(lines[0]).toMatch(/^PETSTORE\(1\) +User Commands +PETSTORE\(1\)$/);
      expect(lines).toContain('NAME');
      expect(lines.join('\n')).not.toContain('.TH PETSTORE');
    },
  );
});
