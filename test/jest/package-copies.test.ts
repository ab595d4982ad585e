// The package has two copies, ES modules (dist/) and CommonJS (dist/cjs/),
// and a jest run may load one for its setup files and the other for the
// test file: what one copy makes, the other must take. (npm run build first.)
import { createRequire } from 'node:module';
import { startCluster, type RunningCluster } from '../../src/index.js';
import { ControlClient } from '../../src/control/client.js';

const require = createRequire(import.meta.url);
const cjs = require('../../dist/cjs/jest/matchers.js') as typeof import('../../src/jest/matchers.js');

let here: RunningCluster;
let there: RunningCluster;
beforeAll(async () => {
  [here, there] = await Promise.all([startCluster({ brokers: 1, topics: [{ name: 'here', partitions: 1 }] }), startCluster({ brokers: 1, topics: [{ name: 'there', partitions: 1 }] })]);
});
afterAll(() => Promise.all([here.stop(), there.stop()]));

test("the CommonJS matchers audit the cluster of an ES module ControlClient, not the environment's", async () => {
  const env = process.env.KAFKAESQUE_URL;
  process.env.KAFKAESQUE_URL = here.controlUrl;
  try {
    const report = await cjs.auditProcessed([], { cluster: new ControlClient(there.controlUrl) });
    expect(report.topics).toEqual(['there']);
  } finally {
    if (env === undefined) delete process.env.KAFKAESQUE_URL;
    else process.env.KAFKAESQUE_URL = env;
  }
});
