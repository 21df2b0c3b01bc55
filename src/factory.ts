/**
 * What every command of one run gets, as gh's cmdutil.Factory: IO streams, global flags, environment, signals, the exporter, and the
 * config store, API client and jq, loaded when first needed.
 */
import type { Dispatcher } from 'undici';
import type { PetstoreClient } from './api/client.js';
import type { ConfigStore } from './config.js';
import { UsageError } from './errors.js';
import type { IOStreams } from './iostreams.js';
import { Exporter } from './output/exporter.js';
import type { OutputFlags } from './output/format.js';
import type { Jq } from './output/jq.js';
import type { JqLimits } from './output/jq-thread.js';
import { configDir, loginHint, missingApiKey, missingBaseUrl, Settings, unreachableHint } from './settings.js';

/** An API key as it can travel in an Authorization header: printable ASCII, no spaces. */
export const API_KEY_FORMAT = /^[\x21-\x7e]+$/;

/** Global flags, after validation. */
export interface GlobalOptions {
  env?: string;
  baseUrl?: string;
  json: boolean;
  color: boolean;
  /**
   * `--timeout`, in milliseconds: the whole command's deadline, or each request's once {@link Factory.timeoutEachRequest} is called
   * (and each POST's in a bulk load).
   */
  timeout: number;
  /** Retries of a GET after the first attempt (and of a bulk load's POST whose connection never opened). */
  retries: number;
  verbose: boolean;
}

/** The signals of one invocation. */
export interface Signals {
  /** Aborted on the first SIGINT or SIGTERM, with an InterruptedError as its reason. */
  stop: AbortSignal;
  /** Aborted on the second: stop waiting for anything (a bulk load's requests in flight). */
  halt: AbortSignal;
}

/** What tests may set in a run that a user cannot. */
export interface Seams {
  /** Random numbers in [0, 1) for retry jitter (Math.random when not given). */
  random?: () => number;
  /** What a --jq thread may hold, in MiB (output/jq-thread.ts's MEMORY_LIMIT_MB when not given). */
  jqMemoryLimitMb?: number;
  /** How long a bulk load's lock may go unrenewed before it is stale, in milliseconds (bulk/load-lock.ts's STALE_MS when not given). */
  lockStaleMs?: number;
  /** How a bulk load writes its journal and --failed (`fs.writeSync(fd, data, offset)`, the bytes taken): tests inject a full disk at any byte. */
  bulkFileWrite?: (fd: number, data: Buffer, offset: number) => number;
  /** How long every connection of a bulk load may be refused before it stops, in milliseconds (bulk/post-policy.ts's UNREACHABLE_MS when not given). */
  unreachableMs?: number;
  /** The client seam: every client the Factory hands out sends through this dispatcher (a test's undici MockAgent). */
  dispatcher?: Dispatcher;
}

export class Factory {
  private globalOptions?: GlobalOptions;
  private exporterValue?: Exporter;
  private storePromise?: Promise<ConfigStore>;
  private clientPromise?: Promise<PetstoreClient>;
  private settingsValue?: Settings;
  private jqPromise?: Promise<Jq>;
  /** When the command's --timeout passes, in performance.now() milliseconds. */
  private deadlineAt?: number;
  private jqLimits?: JqLimits;

  constructor(
    readonly io: IOStreams,
    readonly env: NodeJS.ProcessEnv,
    readonly signals: Signals,
    readonly version: string,
    private readonly seams: Seams = {},
  ) {}

  /** Before the action: the checked global flags and the command's `--format` and `--jq` (undefined when not given or not taken). */
  setGlobals(options: GlobalOptions, output: OutputFlags = {}): void {
    this.globalOptions = options;
    // The IO streams hold --json for the run: its messages and the exporter's format.
    this.io.configure({ json: options.json, color: options.color, verbose: options.verbose });
    this.exporterValue = new Exporter(this.io, output, () => this.jq());
    // One deadline for the whole command: its requests and its --jq runs.
    this.deadlineAt = performance.now() + options.timeout;
  }

  /** The global flags; throws if main has not set them (a bug). */
  get globals(): GlobalOptions {
    if (!this.globalOptions) throw new Error('global options read before they were parsed');
    return this.globalOptions;
  }

  /** The run's output (output/exporter.ts); throws if read before the command line is parsed (a bug). */
  get exporter(): Exporter {
    if (!this.exporterValue) throw new Error('output read before the command line was parsed');
    return this.exporterValue;
  }

  /** Aborted on Ctrl-C or SIGTERM. */
  get signal(): AbortSignal {
    return this.signals.stop;
  }

  /** Opens the config store once; throws UsageError naming the file when it is unusable. */
  store(): Promise<ConfigStore> {
    this.storePromise ??= import('./config.js').then(({ ConfigStore }) =>
      ConfigStore.open(configDir(this.env), (message) => this.io.warn(message, 'config_mode_repaired')),
    );
    return this.storePromise;
  }

  /** Which environment, base URL and key are in effect, and where each comes from. */
  get settings(): Settings {
    this.settingsValue ??= new Settings(this.globals, this.env, () => this.store());
    return this.settingsValue;
  }

  /** The API client, created once; throws UsageError (exit 2) without a base URL, MissingKeyError (exit 4) without a key for its origin. */
  client(): Promise<PetstoreClient> {
    this.clientPromise ??= (async () => {
      const settings = this.settings;
      const envName = (await settings.envName()).value;
      const baseUrl = await settings.baseUrl();
      if (!baseUrl) throw missingBaseUrl(envName);
      const apiKey = await settings.apiKeyFor(baseUrl.value);
      if (!apiKey) throw missingApiKey(envName);
      if (!API_KEY_FORMAT.test(apiKey.value)) {
        throw new UsageError(
          `the API key from ${apiKey.origin} is not usable: it must be printable ASCII without spaces (the key is not shown)`,
        );
      }
      return this.clientFor(baseUrl.value, apiKey.value, envName, baseUrl.origin, apiKey.source);
    })();
    return this.clientPromise;
  }

  /** A client for `baseUrl` with `apiKey`, to check a key (auth login, auth status); not cached: the caller closes it. */
  async clientFor(baseUrl: URL, apiKey: string, envName: string, baseUrlOrigin: string, keySource: string): Promise<PetstoreClient> {
    const { PetstoreClient } = await import('./api/client.js');
    const options = this.globals;
    this.io.debug(`* environment ${envName}, base URL ${baseUrl.href} (from ${baseUrlOrigin}), key from ${keySource}`);
    return new PetstoreClient({
      baseUrl,
      baseUrlFrom: baseUrlOrigin,
      apiKey,
      userAgent: `petstore/${this.version}`,
      timeoutMs: options.timeout,
      deadlineAt: this.deadlineAt,
      retries: options.retries,
      signal: this.signals.stop,
      env: this.env,
      log: options.verbose ? (line) => this.io.debug(line) : undefined,
      warn: (message, code) => this.io.warn(message, code),
      loginHint: loginHint(envName, keySource),
      reachHint: unreachableHint(baseUrl, baseUrlOrigin, envName),
      random: this.seams.random,
      onWait: (host) => this.io.waiting(host),
      dispatcher: this.seams.dispatcher,
    });
  }

  /**
   * From now `--timeout` bounds each request and each `--jq` run on its own, not the whole command: for a command that reads a whole
   * listing (each page its own `--timeout`), which calls {@link growHeapSlowly} too. Call it before the client is made.
   */
  timeoutEachRequest(): void {
    this.deadlineAt = undefined;
    if (this.jqLimits) delete this.jqLimits.deadline;
  }

  /** From now V8's heap grows slowly, for a whole listing or a bulk load (1,000,000 pets listed: 126 MiB RSS, not 250; bench/RESULTS.md). */
  growHeapSlowly(): void {
    // Flags V8 reads each time it resizes a space (node's v8.setFlagsFromString); the process ends with the command.
    // node:v8 loads only here: it brings bindings a short command never uses.
    const { setFlagsFromString } = process.getBuiltinModule('node:v8');
    setFlagsFromString('--semi-space-growth-factor=1');
    setFlagsFromString('--heap-growing-percent=20');
    this.heapGrowsSlowly = true;
  }

  private heapGrowsSlowly = false;

  /**
   * Gives {@link growHeapSlowly}'s flags back V8's defaults, once the command is done: V8 rejects a code cache made under other flags
   * than its own, and src/launch.ts writes one after the command, which the next run (with the defaults) would then compile anew.
   */
  restoreHeapGrowth(): void {
    if (!this.heapGrowsSlowly) return;
    const { setFlagsFromString } = process.getBuiltinModule('node:v8');
    setFlagsFromString('--semi-space-growth-factor=2');
    setFlagsFromString('--heap-growing-percent=0');
    this.heapGrowsSlowly = false;
  }

  /** The run's `--jq` (output/jq.ts): jq sees `env`; runs end on Ctrl-C and at the deadline. Throws before setGlobals (a bug). */
  jq(): Promise<Jq> {
    if (!this.jqPromise) {
      // Kept: timeoutEachRequest may lift the deadline after jq compiled the expression.
      const limits: JqLimits = { stop: this.signals.stop, timeoutMs: this.globals.timeout, deadline: this.deadlineAt };
      this.jqLimits = limits;
      this.jqPromise = import('./output/jq.js').then(({ Jq }) => new Jq(this.env, limits, this.seams.jqMemoryLimitMb));
    }
    return this.jqPromise;
  }

  /**
   * The test seam for a bulk load's lock (see {@link Seams}), or PETSTORE_TEST_LOCK_STALE_MS (2000 to 30000, for tests that run the
   * built bin: docs/testing.md); undefined in a real run.
   */
  get lockStaleMs(): number | undefined {
    if (this.seams.lockStaleMs !== undefined) return this.seams.lockStaleMs;
    const text = this.env.PETSTORE_TEST_LOCK_STALE_MS;
    const ms = text !== undefined && /^\d{4,5}$/.test(text) ? Number(text) : Number.NaN;
    return ms >= 2000 && ms <= 30_000 ? ms : undefined;
  }

  /** The test seams of a bulk load: its journal's writes, its wait for a service that refuses every connection, its resends' jitter. */
  get bulkSeams(): Pick<Seams, 'bulkFileWrite' | 'unreachableMs' | 'random'> {
    return { bulkFileWrite: this.seams.bulkFileWrite, unreachableMs: this.seams.unreachableMs, random: this.seams.random };
  }

  /** Closes the client's connections and ends the jq thread, if the run made them. */
  async close(): Promise<void> {
    const client = await this.clientPromise?.catch(() => undefined);
    await client?.close();
    await (await this.jqPromise)?.close();
  }
}
