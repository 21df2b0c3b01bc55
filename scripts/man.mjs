// Writes dist/man/petstore.1, one man page with every command, from the
// command tree of the built bundle (the same tree --help and shell completion
// read): src/commands/man-page.ts makes it, which `petstore help man` prints
// too, so that the standalone executable has its man page. package.json's
// "man" field ships the file, so that `man petstore` works after
// `npm install -g`, and the Debian and RPM packages install it. The docs step
// of `npm run build`, after scripts/build.mjs: the page documents the program
// that ships, as gh's and cobra's generators document theirs from its
// command tree. Its date is the build's (SOURCE_DATE_EPOCH, else the day).
//
//   node scripts/man.mjs
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const { manPageText } = createRequire(import.meta.url)('../dist/petstore.cjs');
mkdirSync(new URL('../dist/man/', import.meta.url), { recursive: true });
writeFileSync(new URL('../dist/man/petstore.1', import.meta.url), await manPageText());
