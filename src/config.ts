/** The config store: one JSON file read directly, written through conf (atomic, 0600) under a lock; unsafe paths refused. */
import fs from 'node:fs';
import path from 'node:path';
import envPaths from 'env-paths';
import * as z from 'zod/mini';
import { UsageError } from './errors.js';
import { shellWord } from './text.js';

export interface StoredEnvironment {
  baseUrl?: string;
  apiKey?: string;
  /** Origin (scheme, host, port) the key was stored for: the only one it is sent to. */
  apiKeyOrigin?: string;
}

/** config.json as conf writes it, `{"environments": {"<name>": {"baseUrl", "apiKey", "apiKeyOrigin"}}}`; other top-level keys are left alone. */
export const ConfigFile = z.looseObject({
  environments: z.optional(z.record(z.string(), z.record(z.string(), z.string()))),
});

const FIELDS: ReadonlyArray<keyof StoredEnvironment> = ['baseUrl', 'apiKey', 'apiKeyOrigin'];
const FILE_MODE = 0o600;
const DIR_MODE = 0o700;
/** Lock wait before giving up: about 10 s in all. */
const LOCK_RETRIES = { retries: 60, factor: 1.2, minTimeout: 10, maxTimeout: 250 };

export class ConfigStore {
  private stored: Record<string, StoredEnvironment> = {};

  private constructor(
    readonly path: string,
    private readonly folder: string,
  ) {}

  /** Opens and reads the store in `dir` (default: per-platform), tightening loose modes (`warn`). Throws UsageError (exit 2) if unsafe, unreadable or misshapen. */
  static open(dir: string | undefined, warn: (message: string) => void): ConfigStore {
    const folder = path.resolve(dir ?? envPaths('petstore', { suffix: '' }).config);
    const file = path.join(folder, 'config.json');
    checkParent(path.dirname(folder));
    try {
      // Created 0700 here: conf would create it with the umask's mode (0755).
      fs.mkdirSync(folder, { recursive: true, mode: DIR_MODE });
    } catch (error) {
      throw unreadable(file, error);
    }
    checkOwned(folder, 'directory', warn);
    if (fs.lstatSync(file, { throwIfNoEntry: false })) checkOwned(file, 'file', warn);
    const store = new ConfigStore(file, folder);
    store.stored = store.read();
    return store;
  }

  private read(): Record<string, StoredEnvironment> {
    let text: string;
    try {
      text = fs.readFileSync(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw unreadable(this.path, error);
    }
    let data: unknown;
    try {
      // conf skips a byte order mark, which a text editor may save.
      data = JSON.parse(text.replace(/^\uFEFF/, ''));
    } catch {
      // Not the parser's message: it quotes the file around the fault, which may be the key.
      throw unreadable(this.path, new Error('it is not valid JSON.'));
    }
    const parsed = ConfigFile.safeParse(data);
    if (!parsed.success) {
      throw unreadable(this.path, misshapen(parsed.error.issues[0]?.path ?? []));
    }
    return parsed.data.environments ?? {};
  }

  environments(): Record<string, StoredEnvironment> {
    return this.stored;
  }

  environment(name: string): StoredEnvironment {
    return this.stored[name] ?? {};
  }

  /** One locked read-modify-write of `env`: a string sets a field, `undefined` removes it, absent leaves it; creates `env` if new. Throws UsageError naming the file. */
  async update(env: string, changes: Partial<Record<keyof StoredEnvironment, string | undefined>>): Promise<void> {
    const [{ default: Conf }, { default: lockfile }] = await Promise.all([import('conf'), import('proper-lockfile')]);
    let release: () => Promise<void>;
    try {
      release = await lockfile.lock(this.path, { realpath: false, retries: LOCK_RETRIES, stale: 10_000 });
    } catch (error) {
      throw unreadable(this.path, error);
    }
    try {
      const environments = this.read();
      const next: StoredEnvironment = { ...environments[env] };
      for (const field of FIELDS) {
        if (!(field in changes)) continue;
        const value = changes[field];
        if (value === undefined) delete next[field];
        else next[field] = value;
      }
      try {
        const conf = new Conf<Record<string, unknown>>({
          projectName: 'petstore',
          projectSuffix: '',
          cwd: this.folder,
          configFileMode: FILE_MODE,
        });
        const written = { ...environments, [env]: next };
        conf.store = { ...conf.store, environments: written };
        this.stored = written;
      } catch (error) {
        throw unreadable(this.path, error);
      }
    } finally {
      await release().catch(() => undefined);
    }
  }
}

function misshapen(at: readonly PropertyKey[]): Error {
  if (at.length === 0) return new Error('it does not hold a JSON object');
  if (at.length === 1) return new Error(`"${String(at[0])}" is not an object`);
  return new Error(`${at.slice(0, 2).map(String).join('.')} is not an object of strings`);
}

/** Refuses a folder inside one that other users may write to (they could replace it). */
function checkParent(parent: string): void {
  const stat = fs.statSync(parent, { throwIfNoEntry: false });
  if (!stat || typeof process.getuid !== 'function') return;
  const groupWritable = (stat.mode & 0o020) !== 0 && stat.gid !== process.getgid?.();
  if ((stat.mode & 0o002) !== 0 || groupWritable) {
    throw unsafe(parent, 'other users may write to it, so the config folder inside it could be replaced');
  }
}

/** Refuses a symbolic link, a non-`kind`, or another user's; tightens a mode looser than 0700 (folder) or 0600 (file). */
function checkOwned(target: string, kind: 'directory' | 'file', warn: (message: string) => void): void {
  const stat = fs.lstatSync(target);
  if (stat.isSymbolicLink()) throw unsafe(target, 'it is a symbolic link; petstore does not write through links');
  if (kind === 'directory' ? !stat.isDirectory() : !stat.isFile()) throw unsafe(target, `it is not a ${kind}`);
  if (typeof process.getuid === 'function' && stat.uid !== process.getuid()) {
    throw unsafe(target, `it belongs to another user (uid ${stat.uid})`);
  }
  const mode = kind === 'directory' ? DIR_MODE : FILE_MODE;
  const current = stat.mode & 0o777;
  if ((current & ~mode) !== 0) {
    fs.chmodSync(target, mode);
    warn(`${target} was mode ${octal(current)}; changed to ${octal(mode)}`);
  }
}

const octal = (mode: number) => mode.toString(8).padStart(4, '0');

function unsafe(target: string, why: string): UsageError {
  return new UsageError(
    `refusing to use ${target} for the config: ${why}`,
    'Point XDG_CONFIG_HOME at a folder of your own (for example ~/.config), or fix the path.',
    'unsafe_config_path',
  );
}

function unreadable(file: string, cause: unknown): UsageError {
  const why = cause instanceof Error ? cause.message.replace(/^The config file `[^`]*` is /, 'it is ') : String(cause);
  return new UsageError(
    `cannot use config file ${file}: ${why}`,
    `Fix or delete it, then set it up again:\n  rm ${shellWord(file)}\n  petstore config set base-url <url>\n  petstore auth login`,
    'invalid_config',
  );
}
