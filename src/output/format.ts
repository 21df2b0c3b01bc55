/** The one choice of output format, from `--format`, `--json`, `--jq` and whether stdout is a terminal. */
import { UsageError } from '../errors.js';
import { didYouMean } from '../suggest.js';

/** A table, key/value lines, tab-separated rows, a JSON document, or one JSON value per line. */
const FORMATS = ['table', 'kv', 'tsv', 'json', 'ndjson'] as const;
export type OutputFormat = (typeof FORMATS)[number];

/** What a command prints: `records` (list), one `record` (get, add), `fields` (key/value lines: auth status), `stream` (add --file). */
export type OutputShape = 'records' | 'record' | 'fields' | 'stream';

export interface OutputFlags {
  format?: string;
  jq?: string;
}

/** The chosen output: its format and, with `--jq`, the jq expression applied to the JSON. */
export interface OutputSpec {
  format: OutputFormat;
  jq?: string;
}

/** Formats a shape can take: a stream has no whole-document formats. */
export function formatsFor(shape: OutputShape): readonly OutputFormat[] {
  return shape === 'stream' ? ['tsv', 'ndjson'] : FORMATS;
}

function defaultFormat(shape: OutputShape, isTTY: boolean, json: boolean): OutputFormat {
  if (json) return shape === 'stream' ? 'ndjson' : 'json';
  if (shape === 'fields') return 'kv';
  if (shape === 'stream' || !isTTY) return 'tsv';
  return shape === 'record' ? 'kv' : 'table';
}

/**
 * Picks the format: `--format`, else JSON with `--json` or `--jq`, else by shape and terminal. Throws UsageError for a format unknown
 * or not the shape's, or one that is not JSON with `--json`/`--jq`.
 */
export function chooseFormat(flags: OutputFlags, json: boolean, isTTY: boolean, shape: OutputShape): OutputSpec {
  const allowed = formatsFor(shape);
  const wantsJson = json || flags.jq !== undefined;
  const given = allowed.find((name) => name === flags.format);
  if (flags.format !== undefined && given === undefined) {
    throw new UsageError(
      `invalid value for --format: "${flags.format}": allowed values: ${allowed.join(', ')}${didYouMean(flags.format, allowed)}`,
    );
  }
  const format = given ?? defaultFormat(shape, isTTY, wantsJson);
  if (wantsJson && format !== 'json' && format !== 'ndjson') {
    const flag = flags.jq !== undefined ? '--jq' : '--json';
    throw new UsageError(`${flag} and --format ${format} ask for different formats; give one of them`);
  }
  return flags.jq === undefined ? { format } : { format, jq: flags.jq };
}
