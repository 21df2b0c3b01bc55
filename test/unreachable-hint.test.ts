// A service that cannot be reached (refused, no such host, no route, no connection in time) is said the same way by every command:
// its address, then one hint (settings.ts's unreachableHint) naming the base URL and where it came from: --base-url, PETSTORE_BASE_URL,
// or the config, whose command to see it stands on a line of its own. Through main with the fake client, whose MockAgent answers each
// request with the network error.
import { describe, expect, test } from 'vitest';
import { describeSendFailure } from '../src/api/transport.js';
import type { RequestError } from '../src/errors.js';
import { wrapped } from './helpers.js';
import { fakeClientFactory } from './support/fake-client.js';

const URL_TEXT = 'http://127.0.0.1:4799/v1';
const ORIGIN = 'http://127.0.0.1:4799';

/** A connection error as Node's net and dns modules (or undici's connector) give it, with its code. */
function systemError(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

/** The fake client with every request to 127.0.0.1:4799 failing with `code`, the base URL given no way yet. */
function unreachable(code = 'ECONNREFUSED', env: NodeJS.ProcessEnv = {}) {
  const fake = fakeClientFactory({ env: { PETSTORE_BASE_URL: undefined, PETSTORE_NO_DEPRECATION_WARNING: '1', ...env } });
  fake.agent
    .get(ORIGIN)
    .intercept({ path: () => true, method: () => true })
    .replyWithError(systemError(`connect ${code} 127.0.0.1:4799`, code))
    .persist();
  return fake;
}

const FROM_FLAG = `Is the service running at ${URL_TEXT}/?\nThe base URL is from --base-url.\n`;
const FROM_VARIABLE = `Is the service running at ${URL_TEXT}/?\nThe base URL is from PETSTORE_BASE_URL.\n`;
const FROM_CONFIG = `Is the service running at ${URL_TEXT}/?\nThe base URL is from the config:\n  petstore config get base-url\n`;

describe('each command says the base URL and where it came from', () => {
  test('get of one id, --base-url: the address, then the hint (it said the address alone)', async () => {
    const r = await unreachable().main(['get', '1', '--base-url', URL_TEXT]);
    expect(r).toMatchObject({ code: 1, stdout: '', stderr: wrapped(`error: cannot reach 127.0.0.1:4799: ECONNREFUSED\n${FROM_FLAG}`) });
  });

  test('get of several ids, --base-url: the same hint after the count of what was printed', async () => {
    const r = await unreachable().main(['get', '1', '2', '--base-url', URL_TEXT]);
    expect(r).toMatchObject({
      code: 1,
      stdout: '',
      stderr: wrapped(`error: cannot reach 127.0.0.1:4799: ECONNREFUSED (stopped: 0 pets printed of 2 ids read)\n${FROM_FLAG}`),
    });
  });

  test('list, PETSTORE_BASE_URL', async () => {
    const r = await unreachable('ECONNREFUSED', { PETSTORE_BASE_URL: URL_TEXT }).main(['list']);
    expect(r).toMatchObject({ code: 1, stdout: '', stderr: wrapped(`error: cannot reach 127.0.0.1:4799: ECONNREFUSED\n${FROM_VARIABLE}`) });
  });

  test('add, the base URL in the config: the command that shows it on a line of its own', async () => {
    const fake = unreachable();
    expect((await fake.main(['config', 'set', 'base-url', URL_TEXT])).code).toBe(0);
    const r = await fake.main(['add', '--name', 'Rex', '--category-id', '1']);
    expect(r).toMatchObject({ code: 1, stdout: '', stderr: wrapped(`error: cannot reach 127.0.0.1:4799: ECONNREFUSED\n${FROM_CONFIG}`) });
  });

  test('another environment of the config (PETSTORE_ENV): its command names it', async () => {
    const fake = unreachable('ECONNREFUSED', { PETSTORE_ENV: 'staging' });
    expect((await fake.main(['config', 'set', 'base-url', URL_TEXT, '--env', 'staging'])).code).toBe(0);
    const r = await fake.main(['list']);
    expect(r.stderr).toBe(
      wrapped(
        `error: cannot reach 127.0.0.1:4799: ECONNREFUSED\nIs the service running at ${URL_TEXT}/?\n` +
          'The base URL is from the config:\n  petstore config get base-url --env staging\n',
      ),
    );
  });

  test('add --file, --base-url: the stop names the flag, not the config (it named the config whatever gave the URL)', async () => {
    const r = await unreachable().main(['add', '--file', '-', '--base-url', URL_TEXT], {
      stdin: '{"name":"Rex","categoryId":1}\n',
      unreachableMs: 200,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      wrapped(
        'stopped: created 0 of 1 pet; 0 failed, 1 not sent\n' +
          'error: cannot reach 127.0.0.1:4799: ECONNREFUSED; every connection failed for 200 ms, so no more pets are sent\n' +
          `${FROM_FLAG}Once it answers, the same command with --failed sends only the pets not created.\n`,
      ),
    );
  });

  test('auth status, the base URL in the config: the key could not be checked, and why', async () => {
    const fake = unreachable();
    expect((await fake.main(['config', 'set', 'base-url', URL_TEXT])).code).toBe(0);
    const r = await fake.main(['auth', 'status']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(wrapped(`error: cannot check the key: cannot reach 127.0.0.1:4799: ECONNREFUSED\n${FROM_CONFIG}`));
  });

  test('auth login, --base-url: the hint, then how to store the key unchecked', async () => {
    const r = await unreachable().main(['auth', 'login', '--with-token', '--base-url', URL_TEXT], { stdin: 'k1\n' });
    expect(r).toMatchObject({
      code: 1,
      stderr: wrapped(
        'error: cannot check the key: cannot reach 127.0.0.1:4799: ECONNREFUSED; nothing was stored\n' +
          `${FROM_FLAG}Try again, or store it unchecked with --skip-verify.\n`,
      ),
    });
  });

  test('--json: the hint is the error object\'s "hint"', async () => {
    const r = await unreachable().main(['get', '1', '--base-url', URL_TEXT, '--json']);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stderr)).toEqual({
      code: 'network_error',
      message: 'cannot reach 127.0.0.1:4799: ECONNREFUSED',
      status: null,
      hint: FROM_FLAG.trimEnd(),
    });
  });
});

describe('each way a service cannot be reached has the hint; a connection that was made has not', () => {
  test.each(['ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH'])('%s', async (code) => {
    const r = await unreachable(code).main(['get', '1', '--base-url', URL_TEXT]);
    expect(r).toMatchObject({ code: 1, stderr: wrapped(`error: cannot reach 127.0.0.1:4799: ${code}\n${FROM_FLAG}`) });
  });

  test('no connection within --timeout (a connect timeout): the timeout, then the hint', async () => {
    const r = await unreachable('UND_ERR_CONNECT_TIMEOUT').main(['get', '1', '--base-url', URL_TEXT, '--timeout', '500']);
    expect(r).toMatchObject({
      code: 1,
      stderr: wrapped(`error: request to 127.0.0.1:4799 timed out after 500 ms (--timeout)\n${FROM_FLAG}`),
    });
  });

  test('a connection closed after the request was sent (ECONNRESET) reached the service: no such hint', async () => {
    const r = await unreachable('ECONNRESET').main(['get', '1', '--base-url', URL_TEXT]);
    expect(r).toMatchObject({
      code: 1,
      stderr: wrapped(
        'error: the connection to 127.0.0.1:4799 closed before its answer came (ECONNRESET); the request may have reached it\n',
      ),
    });
  });

  test("through a proxy, the proxy is what was not reached: it is named, without the base URL's hint", () => {
    const proxy = { url: new URL('http://127.0.0.1:9'), variable: 'HTTPS_PROXY' };
    const refused = systemError('connect ECONNREFUSED 127.0.0.1:9', 'ECONNREFUSED');
    const failure = describeSendFailure(refused, 'petstore.example', null, 1000, proxy, 'GET', 'HINT') as RequestError;
    expect(failure).toMatchObject({ message: 'cannot reach the proxy 127.0.0.1:9 (from HTTPS_PROXY): ECONNREFUSED', hint: undefined });
    const direct = describeSendFailure(refused, 'petstore.example', null, 1000, undefined, 'GET', 'HINT') as RequestError;
    expect(direct).toMatchObject({ message: 'cannot reach petstore.example: ECONNREFUSED', hint: 'HINT' });
  });
});
