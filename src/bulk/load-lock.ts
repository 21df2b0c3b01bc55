/**
 * The lock of a bulk load's `--failed` file: proper-lockfile's folder `<file>.lock` holding `owner`
 * ({"pid","boot","pidns","host","start","token"}), written whole (a temporary file renamed) or not at all. It is taken over only from
 * a provably dead owner: not renewed for STALE_MS, or its process gone on this boot and PID namespace. Its holder acts only while its
 * lease holds (lock-lease.ts) and removes only a lock that is still its own.
 */

import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import * as z from 'zod/mini';
import { Lease, OWNER, renewalMs } from './lock-lease.js';

/** A lock not renewed for this long (milliseconds) belongs to a dead load. */
export const STALE_MS = 30_000;
const OPEN_NEW = fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK;

/** An error's errno code (ENOSPC), or its text. */
export const errnoCode = (error: unknown): string => (error as NodeJS.ErrnoException).code ?? String(error);

/** The lock is held by a live load (or one that cannot be proven dead). */
export class LockedError extends Error {
  override name = 'LockedError';
  readonly code = 'ELOCKED';
}

/** Something other than a lock folder is at `<file>.lock` (a link, a file): never written through. */
export class LockPathError extends Error {
  override name = 'LockPathError';
}

/** The owner file cannot be written (a full disk): the lock this load made is removed, so that no run is refused for it. */
export class OwnerWriteError extends Error {
  override name = 'OwnerWriteError';

  constructor(
    readonly file: string,
    readonly code: string,
  ) {
    super(`cannot write its owner file ${file}: ${code}`);
  }
}

// `start`: the process's start time (clock ticks after boot, /proc/<pid>/stat), so that a pid reused by another process reads as dead.
const Owner = z.object({
  pid: z.int().check(z.positive()),
  boot: z.string(),
  pidns: z.string(),
  host: z.string(),
  start: z.optional(z.string()),
  token: z.optional(z.string()),
});
type Owner = z.infer<typeof Owner>;

function readText(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    return '';
  }
}

/** When process `pid` started (field 22 of /proc/<pid>/stat, after the command in parentheses); '' where /proc cannot tell. */
function startOf(pid: number | 'self'): string {
  const stat = readText(`/proc/${pid}/stat`);
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? '';
}

/** This process as a lock owner; `boot` and `pidns` are empty where /proc cannot tell them (then no pid is trusted). */
export function thisOwner(): Owner {
  let pidns = '';
  try {
    pidns = fs.readlinkSync('/proc/self/ns/pid');
  } catch {
    // No /proc: pids are never compared.
  }
  return { pid: process.pid, boot: readText('/proc/sys/kernel/random/boot_id'), pidns, host: os.hostname(), start: startOf('self') };
}

function ownerOf(folder: string): Owner | undefined {
  try {
    const parsed = Owner.safeParse(JSON.parse(fs.readFileSync(path.join(folder, OWNER), { encoding: 'utf8', flag: OPEN_READ })));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
const OPEN_READ = fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK;

/**
 * Is `owner`'s process gone? Only asked of an owner of this boot and PID namespace. A zombie counts as dead, and so does a pid that
 * another process took since (another start time); EPERM means alive under another user.
 */
function isDead(owner: Owner): boolean {
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    return errnoCode(error) === 'ESRCH';
  }
  if (owner.start && startOf(owner.pid) && startOf(owner.pid) !== owner.start) return true;
  return /\)\s+Z\s/.test(readText(`/proc/${owner.pid}/stat`));
}

/** Whether `owner`'s pid can be checked here: same boot, same PID namespace (both known), and not this very process. */
function provablyDead(owner: Owner | undefined, self: Owner): boolean {
  if (!owner || !self.boot || !self.pidns || owner.boot !== self.boot || owner.pidns !== self.pidns) return false;
  return owner.pid !== self.pid && isDead(owner);
}

/** A held lock: its release, its lease, and the error if another process took it over (then this load must stop sending). */
export interface HeldLock {
  /** Stops renewing; removes the lock only if it is still this load's (its token in the owner file). Never rejects. */
  release: () => Promise<void>;
  compromised: () => Error | undefined;
  onCompromised: (listener: (error: Error) => void) => void;
  /** Throws LeaseLostError (lock-lease.ts; `file`: --failed as given) unless this load still holds the lock. */
  confirm: (file: string) => void;
}

/** Refuses a link or anything but a folder at `<file>.lock` before proper-lockfile (which follows links) looks at it. */
function checkLockPath(folder: string): void {
  const found = fs.lstatSync(folder, { throwIfNoEntry: false });
  if (found && !found.isDirectory()) {
    throw new LockPathError(`${folder} is ${found.isSymbolicLink() ? 'a symbolic link' : 'not a folder'}; refusing to use it as the lock`);
  }
}

/** Writes the owner file whole: a temporary file in the folder, renamed to `owner` (a reader sees all of it or none). */
function writeOwner(folder: string, owner: Owner): void {
  const temporary = path.join(folder, `${OWNER}.${owner.token}.tmp`);
  try {
    const fd = fs.openSync(temporary, OPEN_NEW, 0o600);
    try {
      fs.writeFileSync(fd, JSON.stringify(owner));
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temporary, path.join(folder, OWNER));
  } catch (error) {
    fs.rmSync(temporary, { force: true });
    throw new OwnerWriteError(path.join(folder, OWNER), errnoCode(error));
  }
}

/**
 * Takes `<file>.lock`, renewed every third of `staleMs`; throws LockedError (a live load holds it), LockPathError, OwnerWriteError (the
 * lock it made removed again), or the system's error.
 */
export async function lockFor(file: string, staleMs = STALE_MS): Promise<HeldLock> {
  const folder = `${file}.lock`;
  const self = thisOwner();
  for (let attempt = 0; ; attempt += 1) {
    checkLockPath(folder);
    const lease = new Lease(folder, staleMs, randomBytes(12).toString('hex'));
    const listeners: ((error: Error) => void)[] = [];
    // Not thrown from a timer (the library's default), which would end the load without its summary or --failed.
    const onCompromised = (error: Error) => {
      lease.onCompromised(error);
      for (const listener of listeners) listener(error);
    };
    let release: () => Promise<void>;
    try {
      release = await lockfile.lock(file, {
        realpath: false,
        retries: 0,
        stale: staleMs,
        update: renewalMs(staleMs),
        onCompromised,
        fs: lease.fs,
      });
    } catch (error) {
      if (error instanceof LockPathError || attempt > 1) throw error;
      const code = errnoCode(error);
      // ENOTEMPTY: proper-lockfile found the folder stale (not renewed for STALE_MS) but could not rmdir it, the owner file being in it.
      if (code === 'ENOTEMPTY') {
        if (!isStale(folder, staleMs)) throw new LockedError('locked');
      } else if (code === 'ELOCKED') {
        // No owner file yet: the owner is between taking the lock and naming itself, so alive.
        if (!provablyDead(ownerOf(folder), self)) throw new LockedError('locked');
      } else throw error;
      fs.rmSync(folder, { recursive: true, force: true });
      continue;
    }
    try {
      checkLockPath(folder);
      // The library reads another mtime as the lock taken over: naming the owner changes it, so it is put back.
      const { mtime } = fs.statSync(folder);
      writeOwner(folder, { ...self, token: lease.token });
      fs.utimesSync(folder, mtime, mtime);
    } catch (error) {
      // What this load made goes: no run waits out the stale time for a lock whose owner never named itself.
      lease.removeIfOurs();
      await release().catch(() => undefined);
      throw error;
    }
    lease.hold();
    return {
      release: async () => {
        await release().catch(() => undefined);
        lease.removeIfOurs();
      },
      compromised: () => lease.compromisedBy,
      onCompromised: (listener) => listeners.push(listener),
      confirm: (given) => lease.confirm(given),
    };
  }
}

function isStale(folder: string, staleMs: number): boolean {
  const found = fs.lstatSync(folder, { throwIfNoEntry: false });
  return found?.isDirectory() === true && Date.now() - found.mtimeMs > staleMs;
}
