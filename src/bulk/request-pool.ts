/** A bound on a bulk load's requests in flight: a counter and one waiter (Promise.race would add a reaction to every request). */
export class RequestPool {
  private inFlight = 0;
  private waiter?: () => void;
  private taker?: () => void;

  constructor(private readonly limit: number) {}

  /** Slots taken: requests in flight and items queued to be sent. */
  get size(): number {
    return this.inFlight;
  }

  /** Whether a slot is free now. */
  get hasRoom(): boolean {
    return this.inFlight < this.limit;
  }

  /** Resolves once a slot is free. */
  async slot(): Promise<void> {
    while (this.inFlight >= this.limit) await new Promise<void>((resolve) => (this.waiter = resolve));
  }

  /** Calls `taker` when a slot is next given back, synchronously, before anything else may take it (one taker at a time). */
  onRoom(taker: () => void): void {
    this.taker = taker;
  }

  /** Takes a free slot (after `slot()`, or when `hasRoom`). */
  take(): void {
    this.inFlight += 1;
  }

  /** Starts `task` in a slot taken earlier, given back when it settles; its rejection is the task's own to handle. */
  run(task: () => Promise<void>): void {
    // One reaction per request (not then + finally): a bulk load makes thousands.
    task().then(this.release, this.release);
  }

  /** Resolves once no request is in flight, or when `until` aborts. */
  async idle(until?: AbortSignal): Promise<void> {
    while (this.inFlight > 0 && !until?.aborted) {
      await new Promise<void>((resolve) => {
        this.waiter = resolve;
        until?.addEventListener('abort', () => resolve(), { once: true });
      });
    }
  }

  /** Gives a slot back. */
  readonly release = (): void => {
    this.inFlight -= 1;
    const taker = this.taker;
    this.taker = undefined;
    taker?.();
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.();
  };
}
