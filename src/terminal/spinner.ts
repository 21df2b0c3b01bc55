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

/** One spinner for all the requests of an invocation (a listing's pages wait one after the other). */
export class Spinner {
  private waits = 0;
  private label = '';
  private frame = 0;
  private timer?: NodeJS.Timeout;
  private shown = false;

  constructor(private readonly line: StatusLine) {}

  /** Starts a wait for `label` ("127.0.0.1:4010"); returns its end (idempotent): the spinner goes once no wait is left. */
  start(label: string): () => void {
    this.waits += 1;
    this.label = label;
    if (this.waits === 1) this.timer = setTimeout(() => this.show(), SPINNER_DELAY_MS).unref();
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
    const draw = () => this.line.set(`${FRAMES[this.frame++ % FRAMES.length]} waiting for ${this.label}`);
    draw();
    this.timer = setInterval(draw, FRAME_MS).unref();
  }
}
