// npm run build's two steps, scripts/build.mjs then scripts/man.mjs, run in a
// copy of the repository (its node_modules linked, not copied): what they do
// with the files an earlier build or `npm run build:standalone` left in
// dist/. What the bundles do is checked by the tests that run them, the
// notice by package.test.ts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import { BIN, spawnAsync } from './helpers.js';

const ROOT = path.dirname(path.dirname(BIN));
const STANDALONE = `petstore-${process.platform}-${process.arch}`;

/** A copy of what the build reads, in a fresh folder; returns its path. */
function copyOfRepository(): string {
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-build-'));
  for (const entry of ['package.json', 'LICENSE', 'tsconfig.json', 'src', 'scripts', 'licenses']) {
    fs.cpSync(path.join(ROOT, entry), path.join(copy, entry), { recursive: true });
  }
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(copy, 'node_modules'));
  return copy;
}

test('npm run build keeps the standalone executable, its notice and the packages, and removes every other file of an earlier build', async () => {
  const copy = copyOfRepository();
  const dist = path.join(copy, 'dist');
  fs.mkdirSync(path.join(dist, 'man'), { recursive: true });
  const kept = {
    [STANDALONE]: '\x7fELF the standalone executable',
    [`${STANDALONE}.NOTICES.txt`]: 'its notice',
    'petstore_0.1.0_amd64.deb': 'a Debian package',
    'petstore-0.1.0-1.x86_64.rpm': 'an RPM package',
    'petstore.rpmlintrc': "the RPM package's rpmlint filters",
  };
  const earlier = { 'petstore.cjs': 'an old bundle', 'renamed.cjs': 'a file this build does not write', 'man/old.1': 'an old man page' };
  for (const [name, text] of Object.entries({ ...kept, ...earlier })) fs.writeFileSync(path.join(dist, name), text);
  fs.chmodSync(path.join(dist, STANDALONE), 0o755);

  for (const step of ['scripts/build.mjs', 'scripts/man.mjs']) {
    const built = await spawnAsync(process.execPath, [path.join(copy, step)], { PATH: process.env.PATH });
    expect(built, step).toEqual({ code: 0, stdout: '', stderr: '' });
  }
  expect(fs.readdirSync(dist, { recursive: true }).map(String).sort()).toEqual(
    [
      'THIRD-PARTY-NOTICES.txt',
      'launch.cjs',
      'man',
      'man/petstore.1',
      'metafile.json',
      'petstore.cjs',
      'petstore.cjs.map',
      'standalone.cjs',
      ...Object.keys(kept),
    ].sort(),
  );
  for (const [name, text] of Object.entries(kept)) expect(fs.readFileSync(path.join(dist, name), 'utf8'), name).toBe(text);
  expect(fs.statSync(path.join(dist, STANDALONE)).mode & 0o777).toBe(0o755);
  // What it wrote is what the repository's own build wrote.
  for (const name of ['petstore.cjs', 'man/petstore.1', 'THIRD-PARTY-NOTICES.txt']) {
    expect(fs.readFileSync(path.join(dist, name), 'utf8'), name).toBe(fs.readFileSync(path.join(ROOT, 'dist', name), 'utf8'));
  }
  fs.rmSync(copy, { recursive: true, force: true });
});
