// The status line's spinners, on the clock (vitest's fake timers, no waiting):
// a request's after half a second, a listing read whole before it prints
// after one second with the count read so far, in place of the requests'; none
// where stderr is no terminal or with --json. The pseudo-terminal shows them
// drawn and cleared (pty-spinner.test.ts).
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { IOStreams } from '../src/iostreams.js';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
});
afterEach(() => {
  vi.useRealTimers();
});

/** IOStreams on a terminal of 80 columns (or not), and what reached its stderr. */
function terminal(stderrIsTTY = true) {
  let stderr = '';
  const io = new IOStreams(
    {
      stdout: { write: () => true },
      stderr: { write: (text: string) => (stderr += text) },
      stdin: Readable.from([]),
      stdoutIsTTY: stderrIsTTY,
      stderrIsTTY,
      stdinIsTTY: false,
      columns: 80,
    },
    {},
  );
  return { io, stderr: () => stderr };
}

describe('the spinner of a listing read whole', () => {
  test('shows after one second, with the count as it grows; the requests meanwhile show none of theirs; gone at its end', () => {
    const { io, stderr } = terminal();
    let read = 0;
    const end = io.waitingForListing(() => `reading the whole listing: ${read} pets so far`);
    expect(end).toBeDefined();
    // A page's request, slow or not, draws nothing of its own.
    expect(io.waiting('127.0.0.1:4010')).toBeUndefined();
    read = 100;
    vi.advanceTimersByTime(999);
    expect(stderr()).toBe('');
    vi.advanceTimersByTime(1);
    expect(stderr()).toBe('\r\u001b[K⠋ reading the whole listing: 100 pets so far');
    read = 200;
    vi.advanceTimersByTime(100);
    expect(stderr().endsWith('\r\u001b[K⠙ reading the whole listing: 200 pets so far')).toBe(true);
    end!();
    expect(stderr().endsWith('\r\u001b[K')).toBe(true);
    // Ended, the requests' spinner is back.
    expect(io.waiting('127.0.0.1:4010')).toBeDefined();
  });

  test('a listing read in under a second draws nothing', () => {
    const { io, stderr } = terminal();
    const end = io.waitingForListing(() => 'reading the whole listing: 0 pets so far');
    vi.advanceTimersByTime(999);
    end!();
    vi.advanceTimersByTime(5000);
    expect(stderr()).toBe('');
  });

  test('none where stderr is not a terminal, nor with --json', () => {
    expect(terminal(false).io.waitingForListing(() => 'x')).toBeUndefined();
    const { io } = terminal();
    io.configure({ json: true, color: false, verbose: false });
    expect(io.waitingForListing(() => 'x')).toBeUndefined();
  });

  test("a request's spinner shows after half a second, saying what it waits for", () => {
    const { io, stderr } = terminal();
    const end = io.waiting('127.0.0.1:4010');
    vi.advanceTimersByTime(499);
    expect(stderr()).toBe('');
    vi.advanceTimersByTime(1);
    expect(stderr()).toBe('\r\u001b[K⠋ waiting for 127.0.0.1:4010');
    end!();
  });
});
