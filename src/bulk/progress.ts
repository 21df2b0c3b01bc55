/**
 * The status line of a bulk load on a terminal: created, failed, rate and,
 * for an input of known size, the share of it taken so far and an estimate of
 * the time left. It is drawn by IOStreams, which clears it before any row or
 * message reaches the same terminal and draws it again after, so that rows
 * and the progress line never share a line.
 */
import type { IOStreams } from '../iostreams.js';

/** The counts the status line shows, read live (the load's own tally). */
export interface ProgressCounts {
  readonly created: number;
  readonly failed: number;
}

const REDRAW_MS = 200;

/**
 * Progress of one bulk load. Input bytes are counted as the items they hold
 * are taken, not as chunks are read: a file of a few hundred pets is one
 * chunk, read at once long before its pets are sent.
 */
export class Progress {
  private readonly timer?: NodeJS.Timeout;
  private readonly started = performance.now();
  /** Bytes whose items have been taken. */
  private bytesTaken = 0;
  /** Bytes read whose items have not been handed out yet (an item can span chunks). */
  private bytesPending = 0;
  private bytesPerItem = 0;

  /**
   * `totalBytes` is the input's size when known (a regular file). `show` is
   * false when the line must not be drawn even on a terminal: while the user
   * types the input on the same terminal, a redrawn line would wipe out the
   * echo of what is being typed. The load holds the status line either way,
   * so that its requests show no spinner.
   */
  constructor(
    private readonly io: IOStreams,
    private readonly counts: ProgressCounts,
    private readonly totalBytes: number | undefined,
    show = true,
  ) {
    io.holdStatus();
    if (show && io.canShowStatus) this.timer = setInterval(() => this.draw(), REDRAW_MS).unref();
  }

  /** Counts `bytes` of input read (one chunk). */
  read(bytes: number): void {
    this.bytesPending += bytes;
  }

  /** The items of the chunks read so far are `items`: their bytes are shared out among them. */
  batch(items: number): void {
    if (items === 0) return;
    this.bytesPerItem = this.bytesPending / items;
    this.bytesPending = 0;
  }

  /** One item of the last batch has been taken (sent, or recorded as not sent). */
  took(): void {
    this.bytesTaken += this.bytesPerItem;
  }

  /** The status line's text now: `created 120, failed 2, 40/s, 41% read, about 4s left`. */
  text(): string {
    const seconds = (performance.now() - this.started) / 1000;
    const rate = seconds > 0 ? this.counts.created / seconds : 0;
    let line = `created ${this.counts.created}, failed ${this.counts.failed}, ${Math.round(rate)}/s`;
    if (this.totalBytes) {
      const share = Math.min(1, this.bytesTaken / this.totalBytes);
      line += `, ${Math.floor(share * 100)}% read`;
      if (share > 0 && share < 1 && seconds >= 1) line += `, about ${formatSeconds((seconds / share) * (1 - share))} left`;
    }
    return line;
  }

  private draw(): void {
    this.io.setStatus(this.text());
  }

  /** Removes the status line. */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.io.clearStatusLine();
  }
}

/** 75 → "1m15s", 9.4 → "9s". */
export function formatSeconds(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  return whole >= 60 ? `${Math.floor(whole / 60)}m${String(whole % 60).padStart(2, '0')}s` : `${whole}s`;
}
