/** The output of one run, as gh's cmdutil.JSONFlags: a command says what it prints ({@link Exporter.choose}), then hands it data. */
import type { IOStreams } from '../iostreams.js';
import { sanitizeLines } from '../text.js';
import { chooseFormat, type OutputFlags, type OutputShape, type OutputSpec } from './format.js';
import type { Jq, JqStream } from './jq.js';
import type { JqLimits } from './jq-thread.js';
import { ListPrinter, printOne, streamText, type View } from './render.js';

type Item = Record<string, unknown>;

/** The output of one run: the format settled once, then data rendered in it. */
export class Exporter {
  private chosen?: OutputSpec;

  constructor(
    private readonly io: IOStreams,
    /** The command's `--format` and `--jq` (undefined when not given or not taken). */
    private readonly flags: OutputFlags,
    private readonly jqOfRun: () => Promise<Jq>,
  ) {}

  /** The `--jq` expression, when given. */
  get jq(): string | undefined {
    return this.flags.jq;
  }

  /** Settles the format of output of `shape` (format.ts's chooseFormat); throws its UsageError (exit 2). */
  choose(shape: OutputShape): OutputSpec {
    this.chosen = chooseFormat(this.flags, this.io.json, this.io.std.stdoutIsTTY, shape);
    return this.chosen;
  }

  /** The format {@link choose} settled; throws if the command chose none (a bug). */
  get spec(): OutputSpec {
    if (!this.chosen) throw new Error('output printed before its format was chosen');
    return this.chosen;
  }

  /** Prints one item in the chosen format; throws jq's runtime error. */
  async printOne(item: Item, view: View): Promise<void> {
    return printOne(this.io.out, item, view, this.spec, this.printJqText);
  }

  /** A printer of a list that arrives in parts (the pages of `list --all`), in the chosen format. */
  pages(view: View): ListPrinter {
    return new ListPrinter(this.io.out, view, this.spec, this.printJqText);
  }

  /** The text of items printed one by one as they come (the `stream` shape: tsv or ndjson). */
  streamText(items: readonly Item[], view: View): string {
    return streamText(items, view, this.spec.format);
  }

  /** With `--jq` (else undefined), the JqStream over a bulk load's NDJSON batches, each run within `limits`; rejects as Jq.compile. */
  async jqStream(limits: JqLimits): Promise<JqStream | undefined> {
    const { jq } = this.spec;
    if (jq === undefined) return undefined;
    return (await this.jqOfRun()).stream(this.io.out, jq, limits);
  }

  /** Prints `--jq`'s results on the JSON text `json` (one value, or several one a line); throws as Jq.print, or without --jq (a bug). */
  async printJq(json: string): Promise<void> {
    if (this.flags.jq === undefined) throw new Error('--jq output printed without --jq');
    return (await this.jqOfRun()).print(this.io.out, this.flags.jq, json);
  }

  private readonly printJqText = (json: string): Promise<void> => this.printJq(json);

  /** Writes text as received (a body that is not JSON, headers); on a terminal only line breaks of its control characters stay. */
  writeText(text: string): void {
    this.io.writeOut(this.io.std.stdoutIsTTY ? sanitizeLines(text) : text);
  }
}
