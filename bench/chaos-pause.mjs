// The chaos soak's paused owner (bench/chaos-soak.mjs, issue 38 item 2): a load stopped with SIGSTOP past its lock's stale time, a
// second identical load that takes the lock over, and the first resumed (SIGCONT) while the second sends.
import fs from 'node:fs';

/** Resolves with `child`'s exit code or signal once it has exited. */
function exitOf(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve({ code: child.exitCode, signal: child.signalCode });
    else child.on('exit', (code, signal) => resolve({ code, signal }));
  });
}

/** Resolves once `condition()` holds, looking every 20 ms. */
async function until(condition) {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 20));
}

/**
 * A run paused (SIGSTOP) once the service has received `at` POSTs (`posts.count`), one of them its own, until its lock (`lockFolder`) has gone unrenewed
 * past `staleMs`; then a second identical load, which takes the lock over; once it sends, SIGCONT to the first. Once the first has
 * ended and the second has sent `concurrency` POSTs more, the second is killed (kill -9), a death as the soak's others, so that its
 * next runs go on with the load. `spawnLoad(name)` starts one load: {child}, its stderr in a file (`name`: "paused" or "second").
 * Resolves with `run` (the second's exit, as the soak's runs are recorded) and `record`: whether the first stopped (exit 1, saying
 * its lock went unrenewed or was taken over) and whether the second went on undisturbed; no record when the first ended before `at`.
 */
export async function pauseOwner({ at, posts, lockFolder, staleMs, concurrency, spawnLoad }) {
  const first = spawnLoad('paused');
  const firstEnd = exitOf(first.child);
  // Paused while it sends (so holding its lock): past `at`, and after a POST of its own.
  const startPosts = posts.count;
  await until(() => (posts.count >= at && posts.count > startPosts) || first.child.exitCode !== null);
  // Ended before that point (the load was done): nothing to pause.
  if (first.child.exitCode !== null) return { run: { ...(await firstEnd), peakRssKiB: 0, stderrTail: '' } };
  const pausedAt = performance.now();
  process.kill(first.child.pid, 'SIGSTOP');
  await until(() => {
    const found = fs.statSync(lockFolder, { throwIfNoEntry: false });
    return !found || Date.now() - found.mtimeMs > staleMs + 200;
  });
  const second = spawnLoad('second');
  const secondEnd = exitOf(second.child);
  const takenAt = posts.count;
  await until(() => posts.count > takenAt || second.child.exitCode !== null);
  const pausedSeconds = Number(((performance.now() - pausedAt) / 1000).toFixed(1));
  process.kill(first.child.pid, 'SIGCONT');
  const firstExit = await firstEnd;
  // The second goes on once the first has ended (its lock left to it): a few more POSTs, then it dies as the other runs do.
  const endedAt = posts.count;
  await until(() => posts.count > endedAt + concurrency || second.child.exitCode !== null);
  const secondRan = posts.count > endedAt + concurrency;
  if (second.child.exitCode === null) process.kill(second.child.pid, 'SIGKILL');
  const secondExit = await secondEnd;
  const firstText = fs.readFileSync(first.log, 'utf8');
  const secondText = fs.readFileSync(second.log, 'utf8');
  const record = {
    at,
    pausedSeconds,
    takenAt,
    firstCode: firstExit.code,
    stopped:
      firstExit.code === 1 &&
      /stopping: (the lock of --failed .* went \d+ s without renewal|another process took over the lock)/.test(firstText),
    secondCode: secondExit.code,
    secondSignal: secondExit.signal,
    secondDisturbed:
      (!secondRan && secondExit.code !== 0 && secondExit.code !== 1) ||
      /another process took over the lock|went \d+ s without renewal|is being written by another/.test(secondText),
  };
  return { run: { ...secondExit, peakRssKiB: 0, stderrTail: secondText.slice(-600) }, record };
}
