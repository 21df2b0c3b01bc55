// The faults of the chaos soak (bench/chaos-soak.mjs), as a `faults` function
// of sandbox/pet-service.mjs: what the service does with each POST /pets.

/** A seeded pseudo-random generator (mulberry32): returns a function giving numbers in [0, 1). */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The step for each POST /pets, counting them in `posts.count`: a 400 Error
 * for a pet named `reject-…`; otherwise 5% a 503 with `Retry-After:
 * retryAfter` (seconds; nothing stored), 1% stored then the connection
 * dropped, 0.5% stored only after `stallMs` (after the client gave up), 0.5%
 * never answered and never stored, and the rest served.
 */
export function chaosFaults({ random, posts, stallMs, retryAfter }) {
  return (request) => {
    if (request.method !== 'POST') return undefined;
    posts.count += 1;
    if (String(JSON.parse(request.body).name).startsWith('reject-')) {
      return { status: 400, json: { code: 'invalid_pet', message: 'this pet is meant to fail', status: 400 } };
    }
    const r = random();
    if (r < 0.05) {
      return {
        status: 503,
        headers: { 'retry-after': retryAfter },
        json: { code: 'unavailable', message: 'busy; try again', status: 503 },
      };
    }
    if (r < 0.06) return { serveThenDestroy: true };
    if (r < 0.065) return { delayMs: stallMs, serve: true };
    if (r < 0.07) return { hang: true };
    return undefined;
  };
}
