/** The pets of a `get` of several ids, printed in order as they come: output/render.ts's ListPrinter, with tables drawn in parts. */
import type { Pet } from '../../api/schemas.js';
import type { Factory } from '../../factory.js';
import type { OutputTarget } from '../../iostreams.js';
import { ListPrinter } from '../../output/render.js';
import { PET_VIEW } from '../../output/views.js';

/** Most text held before it is written, in UTF-16 code units (64 Ki). */
const BATCH_SIZE = 65_536;
/** Longest text is held before it is written, in milliseconds. */
const BATCH_MS = 50;

/**
 * Stdout for many small records: text held and written in one piece when 64 Ki characters are held or 50 ms after the first, as a bulk
 * load writes (bulk/batched-output.ts), so that the answers cost a write each no more (bench/RESULTS.md, issue 37).
 */
class BatchedTarget implements OutputTarget {
  private parts: string[] = [];
  private size = 0;
  private timer?: NodeJS.Timeout;
  readonly isTTY: boolean;
  readonly colorLevel: OutputTarget['colorLevel'];
  readonly columns?: number;

  constructor(private readonly out: OutputTarget) {
    this.isTTY = out.isTTY;
    this.colorLevel = out.colorLevel;
    this.columns = out.columns;
  }

  write(text: string): void {
    this.parts.push(text);
    this.size += text.length;
    if (this.size >= BATCH_SIZE) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), BATCH_MS).unref();
  }

  /** Writes what is held. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.parts.length === 0) return;
    const text = this.parts.length === 1 ? this.parts[0]! : this.parts.join('');
    this.parts = [];
    this.size = 0;
    this.out.write(text);
  }

  drained(): Promise<void> {
    return this.out.drained();
  }

  warn(message: string, code: string, fields?: Record<string, unknown>): void {
    this.out.warn(message, code, fields);
  }
}

/**
 * Most rows of one table of `get -`: a table needs all its rows before it is drawn, so standard input's pets are drawn a table each
 * time the input pauses ({@link PetPrinter.drawGathered}), and at most this many at a time.
 */
export const TABLE_ROWS = 1000;

/**
 * Prints pets as a list that arrives in parts: JSON as one array (streamed), NDJSON, tab-separated rows and key/value lines as they
 * come; a table (and a JSON array for --jq) at the end, or, with `tablesInParts`, a table each time the input pauses and every
 * {@link TABLE_ROWS} pets.
 */
export class PetPrinter {
  private readonly target: BatchedTarget;
  private printer: ListPrinter;
  /** Pets handed to the current printer. */
  private added = 0;
  /** Pets written to stdout (or to --jq). */
  printed = 0;

  constructor(
    private readonly f: Factory,
    private readonly tablesInParts: boolean,
  ) {
    this.target = new BatchedTarget(f.io.out);
    this.printer = this.newPrinter();
  }

  private newPrinter(): ListPrinter {
    return new ListPrinter(this.target, PET_VIEW, this.f.exporter.spec, (json) => this.f.exporter.printJq(json));
  }

  /** Writes the text held: before a message on stderr, so that a terminal shows both in order. */
  flush(): void {
    this.target.flush();
  }

  /** Whether pets are written as they come (else gathered for a table, or for --jq's one array). */
  private get streams(): boolean {
    const { format, jq } = this.f.exporter.spec;
    return jq === undefined ? format !== 'table' : format === 'ndjson';
  }

  private get inParts(): boolean {
    return this.tablesInParts && this.f.exporter.spec.jq === undefined && this.f.exporter.spec.format === 'table';
  }

  /** Prints (or gathers) `pets`, waiting while stdout pushes back; throws --jq's runtime error. */
  async add(pets: readonly Pet[]): Promise<void> {
    if (pets.length === 0) return;
    if (!this.inParts) {
      await this.printer.add(pets);
      this.added += pets.length;
      if (this.streams) this.printed += pets.length;
      return;
    }
    for (let from = 0; from < pets.length; ) {
      const part = pets.slice(from, from + TABLE_ROWS - this.added);
      await this.printer.add(part);
      this.added += part.length;
      from += part.length;
      if (this.added === TABLE_ROWS) await this.endTable();
    }
  }

  /**
   * The input paused and every pet read so far was handed here: a table in parts draws the rows it gathered (a person typing ids sees
   * each answer: a table per pause, each with its own column widths, as psql draws one per query); what is held is written.
   */
  async drawGathered(): Promise<void> {
    if (this.inParts && this.added > 0) await this.endTable();
    this.target.flush();
  }

  private async endTable(): Promise<void> {
    await this.printer.end();
    this.printed += this.added;
    this.added = 0;
    this.printer = this.newPrinter();
  }

  /** Prints what is gathered, or ends the JSON array. */
  async end(): Promise<void> {
    // The last table of parts was drawn when it filled: no empty one after it.
    if (!(this.inParts && this.added === 0 && this.printed > 0)) {
      await this.printer.end();
      if (!this.streams) this.printed += this.added;
    }
    this.target.flush();
  }

  /** The run stopped: a table's rows gathered are drawn, a JSON array is closed (valid JSON still); --jq's gathered array is not run. */
  async cut(): Promise<void> {
    const { format, jq } = this.f.exporter.spec;
    if (format === 'json' && jq === undefined) await this.printer.end();
    else if (!this.streams) this.printed += await this.printer.cut();
    this.target.flush();
  }
}
