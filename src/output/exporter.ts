/**
 * The output of one run, as gh's cmdutil.JSONFlags and its exporter are: the
 * Factory makes one Exporter per run from `--json`, the command's `--format`
 * and `--jq`, and whether stdout is a terminal. A command says what it
 * prints ({@link Exporter.choose}, before it sends anything) and hands the
 * exporter its data and a view; it never reads those flags or the terminal
 * to decide how output looks.
 */
import type { IOStreams } from '../iostreams.js';
import { sanitizeLines } from '../text.js';
import { chooseFormat, type OutputFlags, type OutputShape, type OutputSpec } from './format.js';
import type { Jq, JqStream } from './jq.js';
import type { JqLimits } from './jq-thread.js';
import { ListPrinter, printList, printOne, streamText, type View } from './render.js';

type Item = Record<string, unknown>;

/** What an Exporter is made of: the global `--json` and the command's `--format` and `--jq` (undefined when not given or not taken). */
export interface ExportFlags extends OutputFlags {
  json: boolean;
}

/** The output of one run: the format settled once, then data rendered in it to stdout. */
export class Exporter {
  private chosen?: OutputSpec;

  constructor(
    private readonly io: IOStreams,
    private readonly flags: ExportFlags,
    /** The run's jq (the Factory's), loaded on first use. */
    private readonly jqOfRun: () => Promise<Jq>,
  ) {}

  /** The `--jq` expression, when given (the command took `--jq`). */
  get jq(): string | undefined {
    return this.flags.jq;
  }

  /**
   * Settles the format of what the command prints, of `shape`: `--format`
   * when given, else JSON with `--json` or `--jq`, else by shape and terminal
   * (see output/format.ts's chooseFormat). Returns it. Throws UsageError
   * (exit 2) for an unknown format, one the shape cannot take, or `--json` or
   * `--jq` with a format that is not JSON.
   */
  choose(shape: OutputShape): OutputSpec {
    this.chosen = chooseFormat(this.flags, this.flags.json, this.io.raw.stdoutIsTTY, shape);
    return this.chosen;
  }

  /** The format {@link choose} settled; throws if the command chose none (a bug). */
  get spec(): OutputSpec {
    if (!this.chosen) throw new Error('output printed before its format was chosen');
    return this.chosen;
  }

  /** Prints `items` as a list in the chosen format (output/render.ts's printList; throws jq's runtime error). */
  async printList(items: readonly Item[], view: View): Promise<void> {
    return printList(this.io.out, items, view, this.spec, this.printJqText);
  }

  /** Prints one item in the chosen format (output/render.ts's printOne; throws jq's runtime error). */
  async printOne(item: Item, view: View): Promise<void> {
    return printOne(this.io.out, item, view, this.spec, this.printJqText);
  }

  /** A printer of a list that arrives in parts (the pages of `list --all`), in the chosen format. */
  pages(view: View): ListPrinter {
    return new ListPrinter(this.io.out, view, this.spec, this.printJqText);
  }

  /** The text of items printed one by one as they come, in the chosen format of the `stream` shape (tsv or ndjson). */
  streamText(items: readonly Item[], view: View): string {
    return streamText(items, view, this.spec.format);
  }

  /**
   * With `--jq`, the stream that runs it over output written in pieces (a
   * bulk load's NDJSON batches), each run within `limits`; undefined without
   * `--jq`. Rejects as output/jq.ts's Jq.compile does.
   */
  async jqStream(limits: JqLimits): Promise<JqStream | undefined> {
    const { jq } = this.spec;
    if (jq === undefined) return undefined;
    return (await this.jqOfRun()).stream(this.io.out, jq, limits);
  }

  /**
   * Applies `--jq` to the JSON text `json` (one value, or several one a line)
   * and prints the results; throws when `--jq` was not given (a bug), and
   * what output/jq.ts's Jq.print throws.
   */
  async printJq(json: string): Promise<void> {
    if (this.flags.jq === undefined) throw new Error('--jq output printed without --jq');
    return (await this.jqOfRun()).print(this.io.out, this.flags.jq, json);
  }

  /** {@link printJq}, for the renderers (output/render.ts). */
  private readonly printJqText = (json: string): Promise<void> => this.printJq(json);

  /** Writes text as received (a body that is not JSON, response headers): on a terminal without escape sequences or control characters, line breaks kept. */
  writeText(text: string): void {
    this.io.writeOut(this.io.raw.stdoutIsTTY ? sanitizeLines(text) : text);
  }
}
