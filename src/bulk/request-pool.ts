/**
 * A bound on requests in flight: a bulk load waits for a free slot before it
 * sends the next item, and for every request before it reports. A counter and
 * one waiter rather than Promise.race, which would attach a reaction to every
 * request in flight each time a slot is awaited.
 */
export class RequestPool {
  private inFlight = 0;
  private waiter?: () => void;

  constructor(
    /** Most requests in flight at once. */
    private readonly limit: number,
  ) {}

  /** Requests in flight now. */
  get size(): number {
    return this.inFlight;
  }

  /** Resolves once fewer than `limit` requests are in flight. */
  async slot(): Promise<void> {
    while (this.inFlight >= this.limit) await new Promise<void>((resolve) => (this.waiter = resolve));
  }

  /** Starts `task` in a slot (call after `slot()`); its rejection is the task's own to handle. */
  run(task: () => Promise<void>): void {
    this.inFlight += 1;
    // One reaction per request (not then + finally): a bulk load makes thousands.
    task().then(this.release, this.release);
  }

  /** Resolves once no request is in flight, or when `until` aborts (then requests may still be in flight). */
  async idle(until?: AbortSignal): Promise<void> {
    while (this.inFlight > 0 && !until?.aborted) {
      await new Promise<void>((resolve) => {
        this.waiter = resolve;
        until?.addEventListener('abort', () => resolve(), { once: true });
      });
    }
  }

  private readonly release = (): void => {
    this.inFlight -= 1;
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.();
  };
}
