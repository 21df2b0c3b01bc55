/**
 * The config store: one JSON file written through conf (atomic writes, mode
 * 0600, its folder 0700). It holds, per environment, the base URL and the API
 * key; the key is stored nowhere else.
 *
 * File shape: `{"environments": {"<name>": {"baseUrl": "...", "apiKey": "..."}}}`.
 */
import fs from 'node:fs';
import path from 'node:path';
import Conf from 'conf';
import envPaths from 'env-paths';
import { UsageError } from './errors.js';

/** Stored settings of one environment. */
export interface StoredEnvironment {
  baseUrl?: string;
  apiKey?: string;
}

/** Settings a user may set with `petstore config set`, per environment. */
export const CONFIG_KEYS = ['base-url'] as const;
export type ConfigKey = (typeof CONFIG_KEYS)[number];

const FILE_MODE = 0o600;
const DIR_MODE = 0o700;

/**
 * Wraps conf. Throws UsageError (exit 2) naming the file when it cannot be
 * read or holds something other than the shape above.
 */
export class ConfigStore {
  private constructor(
    private readonly conf: Conf<Record<string, unknown>>,
    /** Absolute path of the config file. */
    readonly path: string,
  ) {}

  /**
   * Opens the store in `dir` (or conf's per-platform default for "petstore"
   * when undefined). Repairs a folder looser than 0700 or a file looser than
   * 0600, calling `warn` with a one-line message when it does.
   */
  static open(dir: string | undefined, warn: (message: string) => void): ConfigStore {
    // conf's own default folder, created here 0700: conf would create it with
    // the umask's mode (0755), and every new user's first command would warn.
    const folder = dir ?? envPaths('petstore', { suffix: '' }).config;
    let conf: Conf<Record<string, unknown>>;
    try {
      fs.mkdirSync(folder, { recursive: true, mode: DIR_MODE });
      conf = new Conf({ projectName: 'petstore', projectSuffix: '', cwd: folder, configFileMode: FILE_MODE });
    } catch (error) {
      throw unreadable(path.join(folder, 'config.json'), error);
    }
    const store = new ConfigStore(conf, conf.path);
    store.repairModes(warn);
    store.read();
    return store;
  }

  private repairModes(warn: (message: string) => void): void {
    const dir = path.dirname(this.path);
    for (const [target, mode] of [
      [dir, DIR_MODE],
      [this.path, FILE_MODE],
    ] as const) {
      let current: number;
      try {
        current = fs.statSync(target).mode & 0o777;
      } catch {
        continue;
      }
      if ((current & ~mode) !== 0) {
        fs.chmodSync(target, mode);
        warn(`warning: ${target} was mode ${current.toString(8).padStart(4, '0')}; changed to ${mode.toString(8).padStart(4, '0')}`);
      }
    }
  }

  private read(): Record<string, StoredEnvironment> {
    let store: Record<string, unknown>;
    try {
      store = this.conf.store;
    } catch (error) {
      throw unreadable(this.path, error);
    }
    const environments = store['environments'] ?? {};
    if (typeof environments !== 'object' || environments === null || Array.isArray(environments)) {
      throw unreadable(this.path, new Error('"environments" is not an object'));
    }
    for (const [name, value] of Object.entries(environments)) {
      const ok =
        typeof value === 'object' &&
        value !== null &&
        Object.values(value).every((v) => typeof v === 'string');
      if (!ok) throw unreadable(this.path, new Error(`environments.${name} is not an object of strings`));
    }
    return environments as Record<string, StoredEnvironment>;
  }

  /** All stored environments by name. */
  environments(): Record<string, StoredEnvironment> {
    return this.read();
  }

  /** The stored settings of one environment ({} when none). */
  environment(name: string): StoredEnvironment {
    return this.read()[name] ?? {};
  }

  /** Stores one field of an environment; `undefined` removes it. */
  setField(env: string, field: keyof StoredEnvironment, value: string | undefined): void {
    this.read();
    const key = `environments.${env}.${field}`;
    try {
      if (value === undefined) this.conf.delete(key);
      else this.conf.set(key, value);
    } catch (error) {
      throw unreadable(this.path, error);
    }
  }
}

function unreadable(file: string, cause: unknown): UsageError {
  const why = cause instanceof Error ? cause.message.replace(/^The config file `[^`]*` is /, 'it is ') : String(cause);
  return new UsageError(
    `cannot use config file ${file}: ${why}`,
    `Fix or delete it (\`rm ${file}\`), then set it up again with \`petstore config set\` and \`petstore auth login\`.`,
    'invalid_config',
  );
}
