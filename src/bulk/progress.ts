/**
 * The status line of a bulk load on a terminal: created, failed, rate and,
 * for an input of known size, the share read and an estimate of the time left.
 * It is drawn by IOStreams, which clears it before any row or message reaches
 * the same terminal and draws it again after.
 */
import type { IOStreams } from '../iostreams.js';

/** The counts the status line shows. */
export interface ProgressCounts {
  created: number;
  failed: number;
}

const REDRAW_MS = 200;

export class Progress {
  private readonly timer?: NodeJS.Timeout;
  private readonly started = performance.now();
  private bytesRead = 0;

  constructor(
    private readonly io: IOStreams,
    private readonly counts: ProgressCounts,
    /** Size of the input in bytes, when known (a regular file). */
    private readonly totalBytes: number | undefined,
  ) {
    if (io.canShowStatus) this.timer = setInterval(() => this.draw(), REDRAW_MS).unref();
  }

  /** Counts input bytes read. */
  read(bytes: number): void {
    this.bytesRead += bytes;
  }

  /** The status line's text now. */
  text(): string {
    const seconds = (performance.now() - this.started) / 1000;
    const rate = seconds > 0 ? this.counts.created / seconds : 0;
    let line = `created ${this.counts.created}, failed ${this.counts.failed}, ${Math.round(rate)}/s`;
    if (this.totalBytes) {
      const share = Math.min(1, this.bytesRead / this.totalBytes);
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
