// Heavy modules stay off the paths that do not need them: --help, --version and
// flag errors load neither undici nor conf (whose ajv is costly at import).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const BIN = fileURLToPath(new URL('../bin/petstore.js', import.meta.url));
const TRACER = fileURLToPath(new URL('./fixtures/trace-imports.mjs', import.meta.url));
const DIST = fileURLToPath(new URL('../dist/', import.meta.url));

/** The dist files whose text contains `marker`. */
function chunksWith(marker: string): string[] {
  return fs.readdirSync(DIST).filter((f) => f.endsWith('.js') && fs.readFileSync(path.join(DIST, f), 'utf8').includes(marker));
}

function loadedChunks(args: string[]): { files: string[]; status: number | null } {
  const trace = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-trace-')), 'loaded.txt');
  const r = spawnSync(process.execPath, ['--import', TRACER, BIN, ...args], {
    env: { PATH: process.env.PATH, TRACE_IMPORTS_FILE: trace, PETSTORE_BASE_URL: 'http://127.0.0.1:9/v1', PETSTORE_API_KEY: 'k' },
  });
  const urls = fs.existsSync(trace) ? fs.readFileSync(trace, 'utf8').trim().split('\n') : [];
  return { files: urls.filter((u) => u.includes('/dist/')).map((u) => path.basename(fileURLToPath(u))), status: r.status };
}

describe('start-up path', () => {
  const undici = chunksWith('UND_ERR_INVALID_ARG');
  const conf = chunksWith('ajv');

  test('the bundle has separate undici and conf chunks to look for', () => {
    expect(undici.length).toBeGreaterThan(0);
    expect(conf.length).toBeGreaterThan(0);
  });

  test.each([[['--version']], [['--help']], [['list', '--limit', '0']], [['get', 'abc']], [['list', '--bogus']]])(
    '%j loads neither undici nor conf',
    (args) => {
      const { files, status } = loadedChunks(args);
      // --version is answered by bin/petstore.js itself, before any bundle loads.
      if (args[0] === '--version') expect(files).toEqual([]);
      else expect(files).toContain('petstore.js');
      expect(status).toBe(args[0]!.startsWith('--') ? 0 : 2);
      expect(files.filter((f) => undici.includes(f) || conf.includes(f))).toEqual([]);
    },
  );
});
