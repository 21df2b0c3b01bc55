/** A bulk load's created pets written in batches (64 KiB, or after 50 ms), with back-pressure: `drained()` waits when stdout pushes back. */
export class BatchedOutput {
  private parts: string[] = [];
  private size = 0;
  private timer?: NodeJS.Timeout;
  private blocked = false;
  private broken = false;
  private readonly waiters = new Set<() => void>();

  constructor(private readonly stream: { write(text: string): unknown; once?(event: 'drain', listener: () => void): unknown }) {}

  push(text: string): void {
    if (this.broken) return;
    this.parts.push(text);
    this.size += text.length;
    if (this.size >= 65_536) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), 50);
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.parts.length || this.broken) return;
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

  /** Resolves once stdout took what it was given, or failed. */
  async drained(): Promise<void> {
    while (this.blocked && this.stream.once) {
      await new Promise<void>((resolve) => {
        this.waiters.add(resolve);
        this.stream.once!('drain', () => {
          this.waiters.delete(resolve);
          resolve();
        });
      });
    }
  }

  /** Stdout failed: nothing more is written, and nobody waits. */
  fail(): void {
    this.broken = true;
    this.blocked = false;
    this.parts = [];
    for (const resolve of this.waiters) resolve();
    this.waiters.clear();
  }
}
