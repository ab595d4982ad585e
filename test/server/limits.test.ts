// Connection quotas as a Kafka broker applies them (max.connections: a new
// connection waits for a slot; max.connections.per.ip: it is closed), and
// the broker-side Fetch caps (fetch.max.bytes, records per fetch) at batch
// granularity, seen by kafkajs.
import { connect as tlsConnect } from 'node:tls';
import { Kafka, logLevel } from 'kafkajs';
import { startCluster, type RunningCluster } from '../../src/index.js';
import { withCluster } from '../support/with-cluster.js';
import { ApiKey } from '../../src/protocol/messages/index.js';
import { fetchPartition, kafkajs, readInGroup } from '../support/kafkajs.js';
import { WireClient } from '../support/wire-client.js';

const apiVersions = (c: WireClient) => c.request(ApiKey.ApiVersions, 3, { clientSoftwareName: 'limits-test', clientSoftwareVersion: '1' });

/** Retries `attempt` for up to 2 s: a close the client made reaches the listener a moment later. */
async function eventually<T>(attempt: () => Promise<T>): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      return await attempt();
    } catch (err) {
      if (i >= 40) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

describe.each([true, false])('connection quotas (proxy: %s)', (proxy) => {
  test('max.connections: a connection over the limit is not served until another closes', async () => {
    await withCluster({ proxy, maxConnections: 2 }, async (k) => {
      const a = await WireClient.connect(k.bootstrap);
      const b = await WireClient.connect(k.bootstrap);
      expect((await apiVersions(a)).errorCode).toBe(0);
      expect((await apiVersions(b)).errorCode).toBe(0);
      const c = await WireClient.connect(k.bootstrap); // TCP connects: Kafka's acceptor waits, the kernel does not
      const answer = apiVersions(c);
      await expect(c.nextFrame(400)).rejects.toThrow(/no frame within/);
      expect(c.closed).toBe(false);
      a.close();
      expect((await answer).errorCode).toBe(0);
      b.close();
      c.close();
    });
  });

  test('max.connections.per.ip: a connection over the limit is closed at once; the first carries on', async () => {
    await withCluster({ proxy, maxConnectionsPerIp: 1 }, async (k) => {
      const a = await WireClient.connect(k.bootstrap);
      const b = await WireClient.connect(k.bootstrap);
      expect(await b.whenClosed(5000)).toBe(true);
      expect((await apiVersions(a)).errorCode).toBe(0);
      a.close();
      // The slot is free again once the listener has seen the close.
      const c = await eventually(async () => {
        const c = await WireClient.connect(k.bootstrap);
        await apiVersions(c);
        return c;
      });
      expect(c.closed).toBe(false);
      c.close();
    });
  });
});

test('max.connections: beyond the 50 that may wait (socket.listen.backlog.size), new connections are closed', async () => {
  await withCluster({ maxConnections: 1 }, async (k) => {
    const served = await WireClient.connect(k.bootstrap);
    const waiting = await Promise.all(Array.from({ length: 50 }, () => WireClient.connect(k.bootstrap)));
    const extra = await WireClient.connect(k.bootstrap);
    expect(await extra.whenClosed(5000)).toBe(true);
    expect(waiting.filter((c) => c.closed)).toHaveLength(0);
    expect((await apiVersions(served)).errorCode).toBe(0);
    for (const c of [served, ...waiting]) c.close();
  });
});

test('max.connections.per.ip with kafkajs: a second client is refused, and served once the first disconnects', async () => {
  await withCluster({ maxConnectionsPerIp: 1, topics: [{ name: 'quota', partitions: 1 }] }, async (k) => {
    const client = () => new Kafka({ brokers: [k.bootstrap], logLevel: logLevel.NOTHING, retry: { retries: 0 }, connectionTimeout: 2000 });
    const first = client().admin();
    await first.connect();
    expect(await first.listTopics()).toContain('quota');
    const second = client().admin();
    await expect(second.connect().then(() => second.listTopics())).rejects.toThrow();
    await second.disconnect().catch(() => {});
    await first.disconnect();
    const topics = await eventually(async () => {
      const third = client().admin();
      try {
        await third.connect();
        return await third.listTopics();
      } finally {
        await third.disconnect().catch(() => {});
      }
    });
    expect(topics).toContain('quota');
  });
}, 30_000);

test('with TLS, a connection that fails its handshake gives its slot back', async () => {
  await withCluster({ tls: true, maxConnections: 1 }, async (k) => {
    for (let i = 0; i < 3; i++) {
      const plain = await WireClient.connect(k.bootstrap);
      plain.send(ApiKey.ApiVersions, 0, {});
      expect(await plain.whenClosed(5000)).toBe(true);
    }
    const tls = new Kafka({ brokers: [k.bootstrap], ssl: { ca: [k.tls!.ca] }, logLevel: logLevel.NOTHING, retry: { retries: 0 }, connectionTimeout: 2000, requestTimeout: 3000 });
    const admin = tls.admin();
    await admin.connect();
    await admin.listTopics();
    await admin.disconnect();
  });
}, 30_000);

test('with TLS, a connection that waited for a slot makes its handshake once served', async () => {
  await withCluster({ tls: true, maxConnections: 1 }, async (k) => {
    const [host, port] = k.bootstrap.split(':');
    const open = () => {
      const s = tlsConnect({ host, port: Number(port), ca: [k.tls!.ca] });
      s.on('error', () => {});
      return s;
    };
    const first = open();
    await new Promise((resolve) => first.once('secureConnect', resolve));
    const second = open();
    let secured = false;
    const handshake = new Promise((resolve) => second.once('secureConnect', resolve)).then(() => (secured = true));
    await new Promise((r) => setTimeout(r, 300));
    expect(secured).toBe(false); // connected at TCP level, not yet served
    first.destroy();
    await handshake;
    second.destroy();
  });
});

/** One Fetch through kafkajs's own Broker (its encoder and decoder), from offset 0 with a 1 MiB request limit. */
async function fetchOnce(kafka: Kafka, topic: string): Promise<string[]> {
  const create = Object.getOwnPropertySymbols(kafka).find((s) => s.description === 'private:Kafka:createCluster');
  const cluster = (kafka as any)[create!]({ metadataMaxAge: 0, allowAutoTopicCreation: false });
  await cluster.connect();
  try {
    await cluster.addTargetTopic(topic);
    await cluster.refreshMetadata();
    const broker = await cluster.findBroker({ nodeId: '0' });
    const res = await broker.fetch({ maxWaitTime: 0, maxBytes: 1 << 20, topics: [{ topic, partitions: [{ partition: 0, fetchOffset: '0', maxBytes: 1 << 20 }] }] });
    return res.responses[0].partitions[0].messages.map((m: any) => m.value.toString());
  } finally {
    await cluster.disconnect();
  }
}

/** Four batches of five records (one send each), v0..v19. */
async function fourBatches(k: RunningCluster, topic: string): Promise<Kafka> {
  const client = kafkajs(k.bootstrap);
  const producer = client.producer();
  await producer.connect();
  for (let b = 0; b < 4; b++) {
    await producer.send({ topic, acks: -1, messages: Array.from({ length: 5 }, (_, i) => ({ value: `v${b * 5 + i}` })) });
  }
  await producer.disconnect();
  expect(k.cluster.partition(topic, 0)!.log.batchCount).toBe(4);
  return client;
}

const values = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `v${from + i}`);

describe('Fetch caps', () => {
  test('without caps, one Fetch returns every batch', async () => {
    await withCluster({ topics: [{ name: 'f', partitions: 1 }] }, async (k) => {
      expect(await fetchOnce(await fourBatches(k, 'f'), 'f')).toEqual(values(0, 20));
    });
  });

  test('fetchMaxBytes (fetch.max.bytes) caps the answer at whole batches; the first batch comes even when larger', async () => {
    await withCluster({ fetchMaxBytes: 1, topics: [{ name: 'f', partitions: 1 }] }, async (k) => {
      const client = await fourBatches(k, 'f');
      expect(await fetchOnce(client, 'f')).toEqual(values(0, 5));
      // A consumer still reads everything, a batch per round.
      expect((await fetchPartition(client, 'f', 0)).map((m) => m.value)).toEqual(values(0, 20));
    });
  });

  test('fetchMaxBytes of two batches returns two', async () => {
    // Measure the batches on a scratch cluster: the same sends make batches of the same sizes.
    let two = 0;
    await withCluster({ topics: [{ name: 'f', partitions: 1 }] }, async (k) => {
      await fourBatches(k, 'f');
      const [b0, b1, b2] = k.cluster.partition('f', 0)!.log.batchesFrom(0);
      two = b0!.bytes.length + b1!.bytes.length;
      expect(b2!.bytes.length).toBeGreaterThan(0);
    });
    await withCluster({ fetchMaxBytes: two, topics: [{ name: 'f', partitions: 1 }] }, async (k) => {
      expect(await fetchOnce(await fourBatches(k, 'f'), 'f')).toEqual(values(0, 10));
    });
  });

  test('maxRecordsPerFetch counts whole batches; the first batch comes even when it holds more', async () => {
    await withCluster({ maxRecordsPerFetch: 12, topics: [{ name: 'f', partitions: 1 }] }, async (k) => {
      const client = await fourBatches(k, 'f');
      expect(await fetchOnce(client, 'f')).toEqual(values(0, 10));
      expect((await fetchPartition(client, 'f', 0)).map((m) => m.value)).toEqual(values(0, 20));
    });
    await withCluster({ maxRecordsPerFetch: 1, topics: [{ name: 'f', partitions: 1 }] }, async (k) => {
      expect(await fetchOnce(await fourBatches(k, 'f'), 'f')).toEqual(values(0, 5));
    });
  });

  test('a consumer group reads everything under both caps', async () => {
    await withCluster({ fetchMaxBytes: 1, maxRecordsPerFetch: 1, topics: [{ name: 'f', partitions: 1 }] }, async (k) => {
      const client = await fourBatches(k, 'f');
      const seen = await readInGroup(client, 'f', 20, { groupId: 'capped', heartbeatInterval: 500 });
      expect(seen).toEqual(values(0, 20));
    });
  }, 30_000);

  test('bad caps are refused with the field', async () => {
    await expect(startCluster({ fetchMaxBytes: 0 })).rejects.toThrow(/fetchMaxBytes: must be a whole number from 1 to 2147483647, got 0/);
    await expect(startCluster({ maxConnections: 1.5 })).rejects.toThrow(/maxConnections: must be a whole number from 1 to 2147483647, got 1.5/);
  });
});
