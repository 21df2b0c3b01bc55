/**
 * The lock of a bulk load's `--failed` file: proper-lockfile's folder `<file>.lock` holding `owner` ({"pid","boot","pidns","host"}),
 * taken over only from a provably dead owner: not renewed for STALE_MS, or its pid gone on this boot and PID namespace.
 */

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import * as z from 'zod/mini';

/** A lock not renewed for this long (milliseconds) belongs to a dead load. */
export const STALE_MS = 30_000;
const OWNER = 'owner';
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

const Owner = z.object({ pid: z.int().check(z.positive()), boot: z.string(), pidns: z.string(), host: z.string() });
type Owner = z.infer<typeof Owner>;

function readText(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    return '';
  }
}

/** This process as a lock owner; `boot` and `pidns` are empty where /proc cannot tell them (then no pid is trusted). */
export function thisOwner(): Owner {
  let pidns = '';
  try {
    pidns = fs.readlinkSync('/proc/self/ns/pid');
  } catch {
    // No /proc: pids are never compared.
  }
  return { pid: process.pid, boot: readText('/proc/sys/kernel/random/boot_id'), pidns, host: os.hostname() };
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

/** Is `pid` gone? Only asked of an owner of this boot and PID namespace. A zombie counts as dead; EPERM means alive under another user. */
function isDead(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return errnoCode(error) === 'ESRCH';
  }
  return /\)\s+Z\s/.test(readText(`/proc/${pid}/stat`));
}

/** Whether `owner`'s pid can be checked here: same boot, same PID namespace (both known), and not this very process. */
function provablyDead(owner: Owner | undefined, self: Owner): boolean {
  if (!owner || !self.boot || !self.pidns || owner.boot !== self.boot || owner.pidns !== self.pidns) return false;
  return owner.pid !== self.pid && isDead(owner.pid);
}

/** A held lock: its release, and the error if another process took it over (then this load must stop sending). */
export interface HeldLock {
  release: () => Promise<void>;
  compromised: () => Error | undefined;
  onCompromised: (listener: (error: Error) => void) => void;
}

/** Refuses a link or anything but a folder at `<file>.lock` before proper-lockfile (which follows links) looks at it. */
function checkLockPath(folder: string): void {
  const found = fs.lstatSync(folder, { throwIfNoEntry: false });
  if (found && !found.isDirectory()) {
    throw new LockPathError(`${folder} is ${found.isSymbolicLink() ? 'a symbolic link' : 'not a folder'}; refusing to use it as the lock`);
  }
}

/** Takes `<file>.lock`, renewed every `staleMs` / 2 ms; throws LockedError (a live load holds it), LockPathError, or the system's error. */
export async function lockFor(file: string, staleMs = STALE_MS): Promise<HeldLock> {
  const folder = `${file}.lock`;
  const self = thisOwner();
  for (let attempt = 0; ; attempt += 1) {
    checkLockPath(folder);
    try {
      let compromised: Error | undefined;
      const listeners: ((error: Error) => void)[] = [];
      // Not thrown from a timer (the library's default), which would end the load without its summary or --failed.
      const onCompromised = (error: Error) => {
        compromised ??= error;
        for (const listener of listeners) listener(error);
      };
      const release = await lockfile.lock(file, { realpath: false, retries: 0, stale: staleMs, onCompromised });
      checkLockPath(folder);
      // The library reads another mtime as the lock taken over: naming the owner changes it, so it is put back.
      const { mtime } = fs.statSync(folder);
      const fd = fs.openSync(path.join(folder, OWNER), OPEN_NEW, 0o600);
      try {
        fs.writeSync(fd, JSON.stringify(self));
      } finally {
        fs.closeSync(fd);
      }
      fs.utimesSync(folder, mtime, mtime);
      return {
        release: async () => {
          fs.rmSync(path.join(folder, OWNER), { force: true });
          await release();
        },
        compromised: () => compromised,
        onCompromised: (listener) => listeners.push(listener),
      };
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
    }
  }
}

function isStale(folder: string, staleMs: number): boolean {
  const found = fs.lstatSync(folder, { throwIfNoEntry: false });
  return found?.isDirectory() === true && Date.now() - found.mtimeMs > staleMs;
}
