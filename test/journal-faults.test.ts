// Issue 38 item 3: the journal is a log that any run appends to after a crash or a full disk. A full disk is injected at every byte
// offset of a load's journal writes (the Factory's bulkFileWrite seam: fs.writeSync takes the bytes that fit, then throws ENOSPC), and
// the same command runs twice more (the first of them on a disk full again at the same offset, or with room); after each run, what the journal's reader makes of each item matches the store: created means
// stored once, unsent means not stored, and only an item it calls unknown may be either. No whole created record is read as anything
// but created.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { itemFromText, itemHash } from '../src/bulk/input-item.js';
import { CREATED, DECIDED, NONE, readJournal, SENDING } from '../src/bulk/journal-read.js';
import { run, wrapped, unwrapped } from './helpers.js';
import { sandboxPerTest } from './support/sandbox.js';

const sandbox = sandboxPerTest('petstore-journal-faults-');
const NAMES = ['p1', 'p2', 'p3'];
const INPUT = NAMES.map((name, i) => `{"name":"${name}","categoryId":${i}}\n`).join('');

type Write = (fd: number, data: Buffer, offset: number) => number;

/** A disk that fills after `room` bytes of the journal's writes: a write takes what fits, the next throws ENOSPC. */
function diskFullAfter(room: number): Write {
  let written = 0;
  return (fd, data, offset) => {
    if (written >= room) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    const taken = fs.writeSync(fd, data, offset, Math.min(room - written, data.length - offset));
    written += taken;
    return taken;
  };
}

/** A disk with room, counting the bytes written. */
function counting(count: { bytes: number }): Write {
  return (fd, data, offset) => {
    const taken = fs.writeSync(fd, data, offset);
    count.bytes += taken;
    return taken;
  };
}

const load = (failed: string, bulkFileWrite?: Write) =>
  run(['add', '--file', '-', '--failed', failed, '--concurrency', '1'], {
    env: { PATH: process.env.PATH, ...sandbox.env() },
    stdin: INPUT,
    bulkFileWrite,
  });

/** How often each input pet is stored. */
function storedCounts(): number[] {
  const names = sandbox.storedNames();
  return NAMES.map((name) => names.filter((stored) => stored === name).length);
}

/** Asserts that the reader's view of `journal` matches the store; `when` names the run in a failure. */
function expectViewMatchesStore(journal: string, when: string): void {
  const stored = storedCounts();
  const text = fs.existsSync(journal) ? fs.readFileSync(journal) : Buffer.alloc(0);
  const read = readJournal(text);
  for (const [i, count] of stored.entries()) {
    expect(count, `${when}: ${NAMES[i]} stored more than once`).toBeLessThanOrEqual(1);
    if (!read) {
      expect(count, `${when}: no journal, yet ${NAMES[i]} is stored`).toBe(0);
      continue;
    }
    const state = i < read.earlier.known ? read.states[i] : NONE;
    const outcome = read.records.get(i)?.outcome;
    const unknown = state === SENDING || (state === DECIDED && outcome === 'unknown') || (state === NONE && i < read.earlier.unknownBelow);
    if (state === CREATED) expect(count, `${when}: ${NAMES[i]} read as created, yet not stored`).toBe(1);
    else if (!unknown) expect(count, `${when}: ${NAMES[i]} read as unsent (state ${state}, ${outcome}), yet stored`).toBe(0);
  }
  // Every whole created record is read as created.
  for (const line of text.toString('utf8').split('\n').slice(0, -1)) {
    const created = /^\{"c":(\d+)(,"id":"-?\d+")?\}$/.exec(line);
    if (created) expect(read?.states[Number(created[1])], `${when}: ${line} not read as created`).toBe(CREATED);
  }
}

describe('a full disk at every byte offset of the journal, then the same command twice', () => {
  test('after each of the three runs the reader matches the store; the third finishes with every pet stored once', async () => {
    await sandbox.start();
    const count = { bytes: 0 };
    const clean = await load(path.join(sandbox.tempDir(), 'failed.ndjson'), counting(count));
    expect(clean.code).toBe(0);
    const bytes = count.bytes;
    expect(bytes).toBeGreaterThan(200);
    await sandbox.current().close();
    for (let offset = 0; offset < bytes; offset += 1) {
      // At odd offsets the second run finds the disk full again at the same offset of its own writes; at even ones it has room.
      const secondFull = offset % 2 === 1;
      const when = (n: number) => `offset ${offset}${secondFull ? ', full again' : ''}, run ${n}`;
      await sandbox.start();
      const failed = path.join(sandbox.tempDir(), 'failed.ndjson');
      const journal = `${failed}.journal`;
      const first = await load(failed, diskFullAfter(offset));
      expect(first.stderr, when(1)).not.toContain('unexpected failure');
      expectViewMatchesStore(journal, when(1));
      const second = await load(failed, secondFull ? diskFullAfter(offset) : undefined);
      expect(second.stderr, when(2)).not.toContain('unexpected failure');
      expectViewMatchesStore(journal, when(2));
      const third = await load(failed);
      expectViewMatchesStore(journal, when(3));
      // The last run has room: it ends the journal, and every pet no record shows possibly sent is created now, once.
      const read = readJournal(fs.readFileSync(journal))!;
      expect(read.earlier.ended, when(3)).toBeDefined();
      const unknown = read.earlier.decided.unknown + read.earlier.noAnswer;
      expect(storedCounts().filter((n) => n === 1).length + unknown, when(3)).toBeGreaterThanOrEqual(NAMES.length);
      expect(third.code, `${when(3)}: ${third.stderr}`).toBe(unknown > 0 ? 1 : 0);
      await sandbox.current().close();
    }
  }, 300_000);
});

describe("a disk full at the journal's first write", () => {
  test('exit 2 saying nothing was sent, with the way out; no request reaches the service', async () => {
    await sandbox.start();
    const failed = path.join(sandbox.tempDir(), 'failed.ndjson');
    const r = await load(failed, diskFullAfter(0));
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr).toBe(
      wrapped(
        `error: cannot write the journal ${failed}.journal: ENOSPC; nothing was sent\n` +
          'Free space on its disk (or give a --failed on another), then run the same command again.\n',
      ),
    );
    expect(sandbox.storedNames()).toEqual([]);
  });
});

describe('a full disk over an earlier --failed', () => {
  test('the file --failed names keeps what it held: a temporary file cut by the disk never replaces it, and a warning says so', async () => {
    await sandbox.start();
    const env = { PATH: process.env.PATH, ...sandbox.env() };
    const failed = path.join(sandbox.tempDir(), 'failed.ndjson');
    // An earlier load's outcomes: one line that is no NewPet, recorded failed.
    const earlier = await run(['add', '--file', '-', '--failed', failed], { env, stdin: '{"name":"no category"}\n' });
    expect(earlier.code).toBe(1);
    const held = fs.readFileSync(failed, 'utf8');
    expect(held).toContain('"outcome":"failed"');
    fs.rmSync(`${failed}.journal`);
    // A new load on a disk that fills halfway through its journal's writes: the load stops, and the records of the pets it leaves
    // unsent find the disk full too.
    const many = Array.from({ length: 40 }, (_, i) => `{"name":"many-${i}","categoryId":1}\n`).join('');
    const count = { bytes: 0 };
    const probe = path.join(sandbox.tempDir(), 'probe.ndjson');
    await run(['add', '--file', '-', '--failed', probe], { env, stdin: many, bulkFileWrite: counting(count) });
    const r = await run(['add', '--file', '-', '--failed', failed], {
      env,
      stdin: many,
      bulkFileWrite: diskFullAfter(Math.floor(count.bytes / 2)),
    });
    expect(r.code).toBe(1);
    expect(unwrapped(r.stderr)).toContain(`warning: cannot write --failed ${failed}: ENOSPC; it was left as it was before this load\n`);
    expect(fs.readFileSync(failed, 'utf8')).toBe(held);
    expect(fs.readdirSync(path.dirname(failed)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});

describe('journals written before issue 38', () => {
  test('a rerun after a full disk recorded an item it made unknown without its "seen" record: the run after it reads on, sends nothing', async () => {
    await sandbox.start();
    const names = ['q1', 'q2', 'q3', 'q4', 'q5'];
    const lines = names.map((name, i) => `{"name":"${name}","categoryId":${i}}`);
    const hash = (i: number) => itemHash(itemFromText(lines[i]!, i + 1));
    // What that petstore wrote: q1 created; q2 sent, then the disk filled in q3's record; the rerun cut the journal there, wrote
    // {"u":3}, recorded q2 and q3 unknown (q3 with no "seen" record) and created q4 and q5.
    const unknown = (i: number) =>
      JSON.stringify({
        line: i + 1,
        source: '-',
        outcome: 'unknown',
        item: JSON.parse(lines[i]!),
        error: {
          code: 'unknown',
          message: 'sent before the load stopped, and no answer was recorded: it may have been created',
          status: null,
        },
      });
    const journal = [
      '{"petstore_journal":2,"input":"-","identity":"stream","started":"2026-11-01T10:00:00.000Z"}',
      `{"i":0,"h":"${hash(0)}","s":1}`,
      '{"c":0}',
      `{"i":1,"h":"${hash(1)}","s":1}`,
      '{"u":3}',
      `{"o":1,"r":${unknown(1)}}`,
      `{"o":2,"r":${unknown(2)}}`,
      `{"i":3,"h":"${hash(3)}","s":1}`,
      `{"i":4,"h":"${hash(4)}","s":1}`,
      '{"c":3}',
      '{"c":4}',
      '{"ended":"2026-11-01T10:01:00.000Z","complete":true,"tally":{"read":5,"created":3,"failed":0,"unknown":2,"notSent":0,"skipped":0}}',
    ];
    const failed = path.join(sandbox.tempDir(), 'failed.ndjson');
    fs.writeFileSync(`${failed}.journal`, `${journal.join('\n')}\n`);
    const r = await run(['add', '--file', '-', '--failed', failed], {
      env: { PATH: process.env.PATH, ...sandbox.env() },
      stdin: `${lines.join('\n')}\n`,
    });
    expect(unwrapped(r.stderr)).toMatch(
      /^this load of standard input finished at 2026-11-01T10:01:00.000Z \(journal .*\): of its 5 pets, 3 created, 0 failed, 2 unknown;/,
    );
    expect(r.stderr).toContain('created 3 of 5 pets; 0 failed, 2 unknown');
    expect(r.code).toBe(1);
    expect(sandbox.posts()).toBe(0);
  });
});

describe('a journal whose first line is no header', () => {
  test('with records after it: not taken for no journal (that would send every pet again): exit 2, nothing sent', async () => {
    await sandbox.start();
    const failed = path.join(sandbox.tempDir(), 'failed.ndjson');
    fs.writeFileSync(`${failed}.journal`, 'garbage\n{"i":0,"h":"00000000","s":1}\n');
    const r = await run(['add', '--file', '-', '--failed', failed], { env: { PATH: process.env.PATH, ...sandbox.env() }, stdin: INPUT });
    expect(r).toMatchObject({
      code: 2,
      stderr: wrapped(
        `error: the journal ${failed}.journal is damaged: its first line is not the header of a petstore journal; nothing was sent by this run\n` +
          'Add --restart to discard the journal and load the input from the start (pets it created would be created again), or give another --failed.\n',
      ),
    });
    expect(sandbox.posts()).toBe(0);
  });

  test('cut off alone (the load died writing it, before any POST): a new journal, every pet created', async () => {
    await sandbox.start();
    const failed = path.join(sandbox.tempDir(), 'failed.ndjson');
    fs.writeFileSync(`${failed}.journal`, '{"petstore_journal":2,"inp');
    const r = await run(['add', '--file', '-', '--failed', failed], { env: { PATH: process.env.PATH, ...sandbox.env() }, stdin: INPUT });
    expect(r.code).toBe(0);
    expect(sandbox.storedNames()).toEqual(NAMES);
  });
});
