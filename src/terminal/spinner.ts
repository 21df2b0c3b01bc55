/** The spinner of requests that keep the user waiting, drawn on IOStreams' status line; its timers never keep the process alive. */

/** The status line a spinner draws on (IOStreams': cleared around every other write to the terminal). */
export interface StatusLine {
  set(text: string): void;
  clear(): void;
}

/** How long a request may take before the spinner shows, in milliseconds. */
const SPINNER_DELAY_MS = 500;
const FRAME_MS = 100;
const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/**
 * One spinner for the waits of an invocation: its requests (a listing's pages wait one after the other), or a whole listing read
 * before anything prints. It shows `delayMs` after the first wait started, and says what the last one started waits for.
 */
export class Spinner {
  private waits = 0;
  private label: () => string = () => '';
  private frame = 0;
  private timer?: NodeJS.Timeout;
  private shown = false;

  constructor(
    private readonly line: StatusLine,
    private readonly delayMs = SPINNER_DELAY_MS,
  ) {}

  /**
   * Starts a wait that `label` says ("waiting for 127.0.0.1:4010", or a function asked at each frame, for a count that grows);
   * returns its end (idempotent): the spinner goes once no wait is left.
   */
  start(label: string | (() => string)): () => void {
    this.waits += 1;
    this.label = typeof label === 'string' ? () => label : label;
    if (this.waits === 1) this.timer = setTimeout(() => this.show(), this.delayMs).unref();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.waits -= 1;
      if (this.waits > 0) return;
      clearTimeout(this.timer);
      if (this.shown) this.line.clear();
      this.shown = false;
    };
  }

  private show(): void {
    this.shown = true;
    const draw = () => this.line.set(`${FRAMES[this.frame++ % FRAMES.length]} ${this.label()}`);
    draw();
    this.timer = setInterval(draw, FRAME_MS).unref();
  }
}
