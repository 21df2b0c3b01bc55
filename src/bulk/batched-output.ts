/** Batched writes of a bulk load's output, with back-pressure. */

/**
 * Created pets are written in batches (64 KiB, or after 50 ms) instead of one
 * write per pet; `drained()` lets the loop wait when stdout pushes back.
 */
export class BatchedOutput {
  private parts: string[] = [];
  private size = 0;
  private timer?: NodeJS.Timeout;
  private blocked = false;

  constructor(private readonly stream: { write(text: string): unknown; once?(event: 'drain', listener: () => void): unknown }) {}

  push(text: string): void {
    this.parts.push(text);
    this.size += text.length;
    if (this.size >= 65_536) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), 50);
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.parts.length) return;
    const accepted = this.stream.write(this.parts.join(''));
    this.parts = [];
    this.size = 0;
    if (accepted === false && this.stream.once) {
      this.blocked = true;
      this.stream.once('drain', () => (this.blocked = false));
    }
  }

  /** Whether stdout pushed back: then await `drained()` before pushing more. */
  get isBlocked(): boolean {
    return this.blocked;
  }

  /** Resolves once stdout has taken what it was given. */
  async drained(): Promise<void> {
    while (this.blocked && this.stream.once) await new Promise<void>((resolve) => this.stream.once!('drain', resolve));
  }
}
