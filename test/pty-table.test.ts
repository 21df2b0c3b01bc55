// Tables on a real terminal (a pseudo-terminal, the screen drawn by a
// terminal emulator): fitted to its width by cutting NAME with "…" by display
// width; piped or redirected output is never cut.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { startPetService, type NewPet, type PetService } from '../sandbox/pet-service.mjs';
import { runInPty, tempDir, type ScreenLine } from './pty.js';

let server: PetService | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** 144 characters, as in the issue. */
const LONG = `${'N'.repeat(140)}tail`;
const CJK = '漢字'.repeat(30);
const EMOJI = '😀🐶'.repeat(30);

async function serve(seed: NewPet[]): Promise<NodeJS.ProcessEnv> {
  server = await startPetService({ key: 'k', seed });
  return { PETSTORE_BASE_URL: server.baseUrl, PETSTORE_API_KEY: 'k' };
}

/** A table row as drawn, cells padded to `widths`. */
const row = (cells: string[], widths: number[]) => `│ ${cells.map((c, i) => c + ' '.repeat(widths[i]! - [...c].length)).join(' │ ')} │`;
const rule = (widths: number[], [l, m, r]: string) => `${l}${widths.map((w) => '─'.repeat(w + 2)).join(m)}${r}`;

/** Lines that are not wider than `cols`: none wrapped, and each table line ends exactly at the last column. */
function expectFitted(screen: ScreenLine[], cols: number) {
  expect(screen.filter((l) => l.wrapped)).toEqual([]);
  for (const line of screen) expect(line.end, line.text).toBe(cols);
}

describe('a table at a terminal of 80 columns', () => {
  test('a 144-character name is cut with … so that no row wraps; the other columns stay whole', async () => {
    const env = await serve([
      { name: 'Rex', categoryId: 1, status: 'available' },
      { name: LONG, categoryId: 22, status: 'sold' },
    ]);
    const run = runInPty(['list'], { env });
    expect(await run.exited).toBe(0);
    const screen = await run.screen();
    // 80 columns: borders 13, ID 2, CATEGORY ID 11, STATUS 9, so NAME gets 45.
    const widths = [2, 45, 11, 9];
    expect(screen.map((l) => l.text)).toEqual([
      rule(widths, '┌┬┐'),
      row(['ID', 'NAME', 'CATEGORY ID', 'STATUS'], widths),
      rule(widths, '├┼┤'),
      row(['1', 'Rex', '1', 'available'], widths),
      row(['2', `${'N'.repeat(44)}…`, '22', 'sold'], widths),
      rule(widths, '└┴┘'),
    ]);
    expectFitted(screen, 80);
  });

  test('CJK and emoji names are cut by display width (two columns each), never inside a character', async () => {
    const env = await serve([
      { name: CJK, categoryId: 1, status: 'pending' },
      { name: EMOJI, categoryId: 2 },
      { name: `a${CJK}`, categoryId: 3 },
    ]);
    const run = runInPty(['list'], { env });
    expect(await run.exited).toBe(0);
    const screen = await run.screen();
    expectFitted(screen, 80);
    const names = screen.slice(3, 6).map((l) => l.text.split('│')[2]!.trim());
    // NAME gets 47 columns (STATUS is 7 wide): 23 wide characters and "…"; after an "a", 22 and "…", since a 23rd would not fit.
    expect(names).toEqual([`${'漢字'.repeat(11)}漢…`, `${'😀🐶'.repeat(11)}😀…`, `a${'漢字'.repeat(11)}…`]);
  });

  test('at 120 columns a shorter cut; a table that fits is left whole', async () => {
    const env = await serve([{ name: LONG, categoryId: 1 }]);
    const wide = runInPty(['list'], { env, cols: 120 });
    expect(await wide.exited).toBe(0);
    const screen = await wide.screen();
    expectFitted(screen, 120);
    expect(screen[3]!.text).toContain(`│ ${'N'.repeat(87)}… │`);
    const roomy = runInPty(['list'], { env, cols: 200 });
    expect(await roomy.exited).toBe(0);
    expect((await roomy.text())[3]).toBe(`│ 1  │ ${LONG} │ 1           │ -      │`);
  });
});

describe('output that is not the terminal is never cut', () => {
  test('redirected to a file: the rows (TSV) and a --format table keep the whole name; the terminal shows nothing', async () => {
    const env = await serve([
      { name: LONG, categoryId: 1, status: 'sold' },
      { name: CJK, categoryId: 2 },
    ]);
    const dir = tempDir();
    const tsv = path.join(dir, 'pets.tsv');
    const table = path.join(dir, 'pets.txt');
    const toFile = runInPty(['list'], { env, shell: `exec $PETSTORE > ${tsv}` });
    expect(await toFile.exited).toBe(0);
    expect(fs.readFileSync(tsv, 'utf8')).toBe(`1\t${LONG}\t1\tsold\n2\t${CJK}\t2\t-\n`);
    expect(await toFile.text()).toEqual([]);
    const asTable = runInPty(['list', '--format', 'table'], { env, shell: `exec $PETSTORE > ${table}` });
    expect(await asTable.exited).toBe(0);
    const lines = fs.readFileSync(table, 'utf8').split('\n');
    expect(lines[3]).toBe(`│ 1  │ ${LONG} │ 1           │ sold   │`);
    expect(lines[4]).toBe(`│ 2  │ ${CJK}${' '.repeat(24)} │ 2           │ -      │`);
  });

  test('piped to another program: the whole name reaches it', async () => {
    const env = await serve([{ name: LONG, categoryId: 1 }]);
    const run = runInPty(['list', '--json'], { env, shell: '$PETSTORE | wc -c' });
    expect(await run.exited).toBe(0);
    const json = `[{"id":1,"name":"${LONG}","categoryId":1}]\n`;
    expect(await run.text()).toEqual([String(Buffer.byteLength(json))]);
  });
});
