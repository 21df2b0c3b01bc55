/**
 * The lease of a held lock of `--failed` (load-lock.ts): proper-lockfile renews the lock folder's mtime every third of the stale time,
 * and the load acts (a POST, a journal record) only while its lease holds: by the monotonic clock (performance.now(), which a pause
 * does not fool), less than two thirds of the stale time since its last successful renewal, and its token still in the owner file.
 * A lease that ran out stays out: the load stops, even should a renewal succeed later.
 */
import fs from 'node:fs';
import path from 'node:path';
import { CliError, ExitCode } from '../errors.js';

/** The lock folder's file naming its owner: {"pid","boot","pidns","host","start","token"}. */
export const OWNER = 'owner';
const OPEN_READ = fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK;

/** Milliseconds between renewals of a lock whose stale time is `staleMs` (proper-lockfile renews at most once a second). */
export function renewalMs(staleMs: number): number {
  return Math.max(Math.round(staleMs / 3), 1000);
}

/** How long after its last renewal a lease holds, in milliseconds: the rest of the stale time is the margin. */
export function leaseMs(staleMs: number): number {
  return Math.round((staleMs * 2) / 3);
}

const seconds = (ms: number) => `${Math.max(1, Math.round(ms / 1000))} s`;

/** Why a load no longer holds its lock: its lease ran out (a pause, say), another load named itself the owner, or the lock is gone. */
export type LeaseLoss = 'expired' | 'taken' | 'gone';

const MESSAGES: Record<LeaseLoss, (file: string, detail: string) => { error: string; stopping: string }> = {
  expired: (file, detail) => ({
    error: `the lock of --failed ${file} ${detail}, so another load may take it over; this load stopped sending`,
    stopping: `stopping: the lock of --failed ${file} ${detail}; no more pets are sent and nothing more is recorded`,
  }),
  taken: (file, detail) => ({
    error: `another process took over the lock of --failed ${file} (${detail}); this load stopped sending`,
    stopping: `stopping: another process took over the lock of --failed ${file}; no more pets are sent`,
  }),
  gone: (file, detail) => ({
    error: `the lock of --failed ${file} was removed (${detail}); this load stopped sending`,
    stopping: `stopping: the lock of --failed ${file} was removed; no more pets are sent`,
  }),
};

/** The load no longer holds its lock (see {@link LeaseLoss}): it sends and records nothing more. */
export class LeaseLostError extends CliError {
  override name = 'LeaseLostError';
  /** The "stopping: ..." line said when the load learns of it. */
  readonly stopping: string;

  constructor(
    readonly kind: LeaseLoss,
    /** --failed as given, for messages. */
    file: string,
    /** How long the lock went without renewal (expired), or what shows it another's or gone. */
    detail: string,
  ) {
    const { error, stopping } = MESSAGES[kind](file, detail);
    super(
      error,
      ExitCode.failure,
      kind === 'expired' ? 'lease_expired' : 'lock_lost',
      'Run the same command again: it resumes the load from its journal, or is refused while another load holds the lock.',
    );
    this.stopping = stopping;
  }
}

/** The loss proper-lockfile's `error` reports at a renewal: the lock folder gone (ENOENT), or changed by another process. */
export function lossAtRenewal(file: string, error: Error): LeaseLostError {
  const code = (error as NodeJS.ErrnoException).code ?? error.message;
  if (error.message.includes('ENOENT')) return new LeaseLostError('gone', file, `${code}: its folder is gone`);
  // proper-lockfile's code for a lock folder whose time another process set: said in words, not as the library's code.
  return new LeaseLostError('taken', file, code === 'ECOMPROMISED' ? 'its lock folder was renewed by another process' : code);
}

/** The token in the owner file of `folder`, or undefined when it cannot be read (gone, another's without one, garbage). */
export function ownerToken(folder: string): string | undefined {
  try {
    const owner = JSON.parse(fs.readFileSync(path.join(folder, OWNER), { encoding: 'utf8', flag: OPEN_READ })) as { token?: unknown };
    return typeof owner?.token === 'string' ? owner.token : undefined;
  } catch {
    return undefined;
  }
}

type Callback = (error: NodeJS.ErrnoException | null) => void;

/** One lease: its clock, and the file system proper-lockfile works through (its `fs` option) so that renewals are seen. */
export class Lease {
  /** performance.now() when the last renewal that succeeded was asked for (at first: before the lock folder was made). */
  private renewedAt = performance.now();
  /** Set once the lease ran out: how long the lock had gone without renewal then. */
  private expiredAfter?: number;
  /** Set once the lock is held: proper-lockfile's own removals (release, exit) touch nothing; {@link removeIfOurs} decides. */
  private held = false;
  private compromised?: Error;

  constructor(
    readonly folder: string,
    readonly staleMs: number,
    readonly token: string,
  ) {}

  /** The file system for proper-lockfile: node:fs, renewals timed, and no removal of a lock folder once held. */
  readonly fs = {
    ...fs,
    utimes: (file: fs.PathLike, atime: Date, mtime: Date, callback: Callback) => {
      const asked = performance.now();
      this.expireIfLate(asked);
      fs.utimes(file, atime, mtime, (error) => {
        if (!error && this.expiredAfter === undefined) this.renewedAt = Math.max(this.renewedAt, asked);
        callback(error);
      });
    },
    rmdir: (file: fs.PathLike, callback: Callback) => (this.held ? callback(null) : fs.rmdir(file, callback)),
    rmdirSync: (file: fs.PathLike) => {
      if (!this.held) fs.rmdirSync(file);
    },
  };

  /** From now the lock folder is this load's: only {@link removeIfOurs} removes it. */
  hold(): void {
    this.held = true;
  }

  /** proper-lockfile's error when it found the folder changed or gone at a renewal. */
  get compromisedBy(): Error | undefined {
    return this.compromised;
  }

  /** proper-lockfile found the folder changed or gone at a renewal. */
  readonly onCompromised = (error: Error): void => {
    this.compromised ??= error;
  };

  private expireIfLate(now: number): void {
    if (this.expiredAfter === undefined && now - this.renewedAt >= leaseMs(this.staleMs)) this.expiredAfter = now - this.renewedAt;
  }

  /** Throws LeaseLostError (`file`: --failed as given) unless the lease holds: fresh by the monotonic clock, and the token still ours. */
  confirm(file: string): void {
    this.expireIfLate(performance.now());
    if (this.expiredAfter !== undefined)
      throw new LeaseLostError(
        'expired',
        file,
        `went ${seconds(this.expiredAfter)} without renewal (this process was paused, too busy, or could not renew it), past the ${seconds(leaseMs(this.staleMs))} its lease lasts`,
      );
    if (this.compromised) throw lossAtRenewal(file, this.compromised);
    const token = ownerToken(this.folder);
    if (token === undefined && !fs.existsSync(path.join(this.folder, OWNER)))
      throw new LeaseLostError('gone', file, 'its owner file is gone');
    if (token !== this.token) throw new LeaseLostError('taken', file, 'its owner file names another load');
  }

  /** Removes the lock folder if it is still this load's (its token in the owner file); another load's is left as it is. */
  removeIfOurs(): void {
    if (ownerToken(this.folder) !== this.token) return;
    fs.rmSync(path.join(this.folder, OWNER), { force: true });
    try {
      fs.rmdirSync(this.folder);
    } catch {
      // Gone already, or not empty: something else was put in it.
    }
  }
}
