/** A bulk load's status line on a terminal (counts, rate, share read, time left), drawn through the StatusLine it is handed. */
import type { StatusLine } from './load-context.js';

export interface ProgressCounts {
  readonly created: number;
  readonly failed: number;
}

const REDRAW_MS = 200;

/** Progress of one bulk load. Bytes count as their items are taken, not as read: a small file is one chunk read long before it is sent. */
export class Progress {
  private readonly timer?: NodeJS.Timeout;
  private readonly started = performance.now();
  private bytesTaken = 0;
  /** Read, but not yet handed out as items (an item can span chunks). */
  private bytesPending = 0;
  private bytesPerItem = 0;

  /** `totalBytes`: the input's size if known; `show` false while the user types the input here (redraws would wipe the echo). */
  constructor(
    private readonly status: StatusLine,
    private readonly counts: ProgressCounts,
    private readonly totalBytes: number | undefined,
    show = true,
  ) {
    status.holdStatus();
    if (show && status.canShowStatus) this.timer = setInterval(() => this.status.setStatus(this.text()), REDRAW_MS).unref();
  }

  read(bytes: number): void {
    this.bytesPending += bytes;
  }

  /** The items of the chunks read so far are `items`: their bytes are shared out among them. */
  batch(items: number): void {
    if (items === 0) return;
    this.bytesPerItem = this.bytesPending / items;
    this.bytesPending = 0;
  }

  /** One item of the last batch was taken (sent, or recorded as not sent). */
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

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.status.clearStatusLine();
  }
}

/** 75 → "1m15s", 9.4 → "9s". */
export function formatSeconds(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  return whole >= 60 ? `${Math.floor(whole / 60)}m${String(whole % 60).padStart(2, '0')}s` : `${whole}s`;
}
