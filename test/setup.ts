// Every test runs with real network connections refused: only nock mocks and
// loopback servers started by the tests themselves answer.
import nock from 'nock';
import { afterEach, beforeAll, expect } from 'vitest';

beforeAll(() => {
  nock.disableNetConnect();
  nock.enableNetConnect((host) => host.startsWith('127.0.0.1'));
});

afterEach(() => {
  const pending = nock.pendingMocks();
  nock.cleanAll();
  expect(pending, 'every nock mock must be used').toEqual([]);
});
