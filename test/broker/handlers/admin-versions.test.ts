// Every version of each admin API the broker serves is answered (a response
// that decodes, on a connection that stays open), not only the versions the
// clients in the other tests send.
import { startCluster, type RunningCluster } from '../../../src/index.js';
import { brokerHandlers } from '../../../src/broker/handlers/index.js';
import { HandlerRegistry } from '../../../src/broker/handlers/registry.js';
import { WireClient } from '../../support/wire-client.js';
import { adminRequests } from '../../support/admin-frames.js';

let kafka: RunningCluster;
let c: WireClient;
beforeAll(async () => {
  kafka = await startCluster({ brokers: 1, proxy: false, logLevel: 'silent', topics: [{ name: 'golden', partitions: 2 }] });
  c = await WireClient.connect(kafka.bootstrap);
});
afterAll(async () => {
  c.close();
  await kafka.stop();
});

const registry = new HandlerRegistry(brokerHandlers);
const served = adminRequests.filter(([, key, version]) => {
  const h = registry.get(key);
  return h && version >= h.minVersion && version <= h.maxVersion;
});

test.each(served)('%s (key %i) v%i is answered', async (_name, apiKey, version, body) => {
  const res = await c.request(apiKey, version, body);
  expect(res).toBeDefined();
  expect(c.closed).toBe(false);
});
