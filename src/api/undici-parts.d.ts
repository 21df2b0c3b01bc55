// Types for the undici modules the client imports directly instead of
// undici's index, which loads fetch, WebSocket, caches and mocks at start-up.
declare module 'undici/lib/dispatcher/env-http-proxy-agent.js' {
  import { EnvHttpProxyAgent } from 'undici';
  export = EnvHttpProxyAgent;
}

declare module 'undici/lib/interceptor/retry.js' {
  import type { interceptors } from 'undici';
  const retry: typeof interceptors.retry;
  export = retry;
}

declare module 'undici/lib/dispatcher/pool.js' {
  import { Pool } from 'undici';
  export = Pool;
}
