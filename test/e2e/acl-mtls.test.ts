// mTLS principals in ACLs: a client certificate's subject (RFC 2253, as
// Kafka's default principal builder gives it) is the principal the
// authorizer checks, through the proxy (which tells the broker who the client
// is) and without it; a TLS client without a certificate is User:ANONYMOUS.
// ACLs given at start are there from the first request and after a reset.
import { Kafka, logLevel } from 'kafkajs';
import { startCluster, type RunningCluster } from '../../src/index.js';
import { resetCluster } from '../../src/control/reset.js';

describe.each([true, false])('proxy %s', (proxy) => {
  let kafka: RunningCluster;
  beforeAll(async () => {
    kafka = await startCluster({
      brokers: 1,
      proxy,
      tls: { clientAuth: 'requested' },
      authorizer: {
        acls: [
          { resourceType: 'TOPIC', resourceName: 'mtls', principal: 'User:CN=kafkaesque-client', operation: 'WRITE' },
          { resourceType: 'TOPIC', resourceName: 'anon', principal: 'User:ANONYMOUS', operation: 'WRITE' },
          { resourceType: 'CLUSTER', resourceName: 'kafka-cluster', principal: 'User:*', operation: 'IDEMPOTENT_WRITE' },
        ],
      },
      topics: [{ name: 'mtls', partitions: 1 }, { name: 'anon', partitions: 1 }],
    });
  });
  afterAll(() => kafka.stop());

  const client = (withCert: boolean) =>
    new Kafka({
      brokers: kafka.bootstrap.split(','),
      ssl: { ca: [kafka.tls!.ca], ...(withCert ? { cert: kafka.tls!.client!.cert, key: kafka.tls!.client!.key } : {}) },
      logLevel: logLevel.NOTHING,
      retry: { retries: 1, initialRetryTime: 50 },
    });
  const send = async (k: Kafka, topic: string) => {
    const p = k.producer();
    await p.connect();
    try {
      await p.send({ topic, acks: -1, messages: [{ value: 'v' }] });
    } finally {
      await p.disconnect();
    }
  };

  test('the certificate subject is the principal; no certificate is ANONYMOUS', async () => {
    await send(client(true), 'mtls');
    await expect(send(client(true), 'anon')).rejects.toThrow(/Topic authorization failed/); // kafkajs's metadata refresh meets the refusal first
    await send(client(false), 'anon');
    await expect(send(client(false), 'mtls')).rejects.toThrow(/Topic authorization failed/); // kafkajs's metadata refresh meets the refusal first
  });

  test('start ACLs come back after a reset', async () => {
    kafka.cluster.authorizer!.deleteAcls([{ resourceType: 1, resourceName: null, patternType: 1, principal: null, host: null, operation: 1, permissionType: 1 }]);
    expect(kafka.cluster.authorizer!.size).toBe(0);
    await resetCluster({ cluster: kafka.cluster, chaos: kafka.chaos, startNode: async () => {} }, kafka.options.topics);
    expect(kafka.cluster.authorizer!.size).toBe(3);
    await send(client(true), 'mtls');
  });
});
