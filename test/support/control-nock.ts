// The control API mocked with nock for ControlClient tests: no request may
// reach the network, and every mock a test sets up must have been asked for
// by the end of it. Registers its own beforeAll/afterEach/afterAll.
import nock from './nock.js';

/** Mocks of `base` that answer only requests carrying `token` as a Bearer token. */
export function controlApiMock(base: string, token: string): () => nock.Scope {
  beforeAll(() => nock.disableNetConnect());
  afterEach(() => {
    const pending = nock.pendingMocks();
    nock.cleanAll();
    expect(pending).toEqual([]);
  });
  afterAll(() => {
    nock.enableNetConnect();
    nock.restore();
  });
  return () => nock(base).matchHeader('authorization', `Bearer ${token}`);
}
