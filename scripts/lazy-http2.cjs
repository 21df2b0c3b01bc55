'use strict';
// Stands in for node:http2 inside undici's client-h2.js, which destructures
// http2.constants when it loads although petstore never speaks HTTP/2
// (undici uses it only with allowH2). Loading node:http2 (and with it node:tls)
// costs 13-16 ms per call of the tool. The constants below are fixed by RFC 9113
// and nghttp2 (test/lazy-http2.test.ts checks them against the real module);
// any other access loads the real module.
const KNOWN = {
  HTTP2_HEADER_AUTHORITY: ':authority',
  HTTP2_HEADER_METHOD: ':method',
  HTTP2_HEADER_PATH: ':path',
  HTTP2_HEADER_SCHEME: ':scheme',
  HTTP2_HEADER_CONTENT_LENGTH: 'content-length',
  HTTP2_HEADER_EXPECT: 'expect',
  HTTP2_HEADER_STATUS: ':status',
  HTTP2_HEADER_PROTOCOL: ':protocol',
  NGHTTP2_NO_ERROR: 0,
  NGHTTP2_REFUSED_STREAM: 7,
};
let real;
const load = () => (real ??= require('node:http2'));
const constants = new Proxy({}, { get: (_t, key) => (Object.hasOwn(KNOWN, key) ? KNOWN[key] : load().constants[key]) });
// KNOWN is exported for the test only; undici never reads it.
module.exports = new Proxy({ constants, KNOWN }, { get: (own, key) => (Object.hasOwn(own, key) ? own[key] : load()[key]) });
