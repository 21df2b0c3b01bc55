// Which proxy a request to the service goes through (proxyFor): the variable
// that names it and the NO_PROXY entries that keep a host off it. The
// requests themselves, through the test proxy, are in network-proxy.test.ts,
// which keeps a case of each kind end to end.
import { describe, expect, test } from 'vitest';
import { proxyFor } from '../src/api/transport.js';

const SERVICE = new URL('https://petstore.invalid/v1');
const PROXY = 'http://127.0.0.1:3128';

describe('the variable', () => {
  test.each(['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY'])('%s names the proxy of an https service', (variable) => {
    expect(proxyFor(SERVICE, { [variable]: PROXY })).toEqual({ url: new URL(PROXY), variable });
  });
});

describe('NO_PROXY', () => {
  test.each(['petstore.invalid', 'PETSTORE.INVALID', '.invalid', 'other.example, petstore.invalid', 'petstore.invalid:443', '*'])(
    'NO_PROXY=%s covers petstore.invalid: no proxy',
    (noProxy) => {
      expect(proxyFor(SERVICE, { HTTPS_PROXY: PROXY, NO_PROXY: noProxy })).toBeUndefined();
    },
  );

  test.each(['other.invalid', 'store.invalid', '*.petstore.invalid', 'petstore.invalid:8443'])(
    'no_proxy=%s does not cover petstore.invalid: the proxy',
    (noProxy) => {
      expect(proxyFor(SERVICE, { HTTPS_PROXY: PROXY, no_proxy: noProxy })).toEqual({ url: new URL(PROXY), variable: 'HTTPS_PROXY' });
    },
  );
});
