/**
 * The two ways the end-to-end tests reach the sandbox: directly, and through
 * Stoplight Prism validating every request and answer against
 * openapi/petstore.yaml (the contract run). Each run gets a fresh sandbox.
 */
import { startPrismProxy } from './prism.js';
import { startSandbox, type SandboxRequest } from './sandbox.js';

export const E2E_KEY = 'e2e-key';

/** A target, started: where the CLI points, and what the sandbox behind it saw. */
export interface RunningTarget {
  /** Base URL for the CLI, ending in `/v1`. */
  baseUrl: string;
  /** Requests the sandbox received. */
  requests: SandboxRequest[];
  /** Contract violations reported since the last call (none directly), then forgotten. */
  takeViolations(): string[];
  stop(): Promise<void>;
}

export interface E2eTarget {
  name: string;
  /** The first id the sandbox assigns, and a category id the tests send. */
  firstId: bigint;
  categoryId: string;
  /** How the ids relate to 2^53, for test names. */
  idRange: string;
  /**
   * Whether getPet's answers carry a Deprecation header: Prism adds
   * `Deprecation: true` to every answer of an operation marked deprecated,
   * and petstore warns of it (unless PETSTORE_NO_DEPRECATION_WARNING=1).
   */
  deprecationHeader: boolean;
  start(): Promise<RunningTarget>;
}

/** The sandbox itself, with ids above 2^53. */
export const direct: E2eTarget = {
  name: 'directly against the sandbox',
  firstId: 9007199254740993n,
  categoryId: '9007199254740995',
  idRange: 'above 2^53',
  deprecationHeader: false,
  async start() {
    const sandbox = await startSandbox({ key: E2E_KEY, firstId: direct.firstId });
    return { baseUrl: sandbox.baseUrl, requests: sandbox.requests, takeViolations: () => [], stop: () => sandbox.close() };
  },
};

/**
 * Prism (`--errors`) in front of a sandbox. Prism reads JSON into JavaScript
 * numbers and checks int64 only up to 2^53 - 1 (a larger categoryId is refused
 * with 422, "must be <= 9007199254740991"), so this run keeps its ids just
 * below 2^53; ids above it are covered by the direct run.
 */
export const throughPrism: E2eTarget = {
  name: 'through Prism in front of the sandbox',
  firstId: 2n ** 53n - 1000n,
  categoryId: String(Number.MAX_SAFE_INTEGER),
  idRange: 'up to 2^53 - 1',
  deprecationHeader: true,
  async start() {
    const sandbox = await startSandbox({ key: E2E_KEY, firstId: throughPrism.firstId });
    const prism = await startPrismProxy(sandbox.baseUrl).catch(async (error: unknown) => {
      await sandbox.close();
      throw error;
    });
    return {
      baseUrl: prism.baseUrl,
      requests: sandbox.requests,
      takeViolations: prism.takeViolations,
      stop: async () => {
        await prism.stop();
        await sandbox.close();
      },
    };
  },
};
