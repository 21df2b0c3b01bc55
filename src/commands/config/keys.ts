/** The settings `petstore config` knows, shared by its declaration (./config.ts) and its runs (./run.ts). */
import type { StoredEnvironment } from '../../config.js';

/** Settings a user may set with `petstore config set`, and the stored field of each. */
export const CONFIG_KEYS: Readonly<Record<string, keyof StoredEnvironment>> = { 'base-url': 'baseUrl' };
