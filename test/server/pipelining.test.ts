// Pipelined requests on one connection are processed one at a time, as
// Kafka's SocketServer does (a channel is muted from the moment a request is
// read until its response is sent), directly and through the chaos proxy.
import { startCluster, type RunningCluster } from '../../src/index.js';
import { ApiKey } from '../../src/protocol/messages/index.js';
import { buildRecordBatch } from '../../src/protocol/record-batch.js';
import { WireClient, correlationOf, decodeResponse } from '../support/wire-client.js';

const protocols = [{ name: 'range', metadata: Buffer.alloc(0) }];
const join = (groupId: string, memberId: string) => ({ groupId, sessionTimeoutMs: 30_000, rebalanceTimeoutMs: 30_000, memberId, protocolType: 'consumer', protocols });

describe.each([
  ['directly', false],
  ['through the proxy', true],
])('%s', (_how, proxy) => {
  let kafka: RunningCluster;
  const clients: WireClient[] = [];
  const connect = async () => {
    const c = await WireClient.connect(kafka.bootstrap);
    clients.push(c);
    return c;
  };
  beforeAll(async () => {
    kafka = await startCluster({ brokers: 1, proxy, logLevel: 'silent', topics: [{ name: 'pipe', partitions: 1 }] });
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await kafka.stop();
  });

  test('regression: a second JoinGroup pipelined behind a parked one does not take its answer; both are answered, in order', async () => {
    const [a, b] = [await connect(), await connect()];
    const groupId = `pipelined-join-${proxy}`;
    // A, then B: generation 2 with both members, waiting for SyncGroup.
    const memberA = (await a.request(ApiKey.JoinGroup, 3, join(groupId, ''))).memberId as string;
    const bJoin = b.send(ApiKey.JoinGroup, 3, join(groupId, ''));
    await a.request(ApiKey.JoinGroup, 3, join(groupId, memberA));
    const memberB = (decodeResponse((await b.nextFrame())!, ApiKey.JoinGroup, 3, bJoin) as any).memberId as string;
    // A rejoins with new metadata (a rebalance that waits for B) and, in the same write, once more.
    const rebalancing = new Promise<void>((resolve) => {
      const onState = (e: { groupId: string; to: string }) => {
        if (e.groupId !== groupId || e.to !== 'PreparingRebalance') return;
        kafka.cluster.groups.off('state-changed', onState);
        resolve();
      };
      kafka.cluster.groups.on('state-changed', onState);
    });
    const changed = { ...join(groupId, memberA), protocols: [{ name: 'range', metadata: Buffer.from([1]) }] };
    a.socket.cork();
    const first = a.send(ApiKey.JoinGroup, 3, changed);
    const second = a.send(ApiKey.JoinGroup, 3, changed);
    a.socket.uncork();
    await rebalancing;
    const bRejoin = b.send(ApiKey.JoinGroup, 3, join(groupId, memberB));
    // Before the fix the second JoinGroup was processed at once and took the parked first one's answer, which never came: A's connection stalled.
    const answers = [(await a.nextFrame())!, (await a.nextFrame())!];
    expect(answers.map(correlationOf)).toEqual([first, second]);
    const [one, two] = answers.map((f, i) => decodeResponse(f, ApiKey.JoinGroup, 3, [first, second][i]) as any);
    expect([one.errorCode, one.generationId, one.memberId]).toEqual([0, 3, memberA]);
    // The second is read after the rebalance completed: same metadata, so it gets the generation it is in.
    expect([two.errorCode, two.generationId, two.memberId]).toEqual([0, 3, memberA]);
    expect((decodeResponse((await b.nextFrame())!, ApiKey.JoinGroup, 3, bRejoin) as any).generationId).toBe(3);
  });

  test('a request behind a long-polling Fetch is processed only after it: the Fetch does not see the Produce pipelined after it', async () => {
    const c = await connect();
    const p = kafka.cluster.partition('pipe', 0)!;
    const end = p.logEndOffset;
    const fetchId = c.send(ApiKey.Fetch, 11, { maxWaitMs: 200, minBytes: 1, maxBytes: 1 << 20, isolationLevel: 0, sessionEpoch: -1, topics: [{ topic: 'pipe', partitions: [{ partition: 0, fetchOffset: end, partitionMaxBytes: 1 << 20 }] }] });
    const produceId = c.send(ApiKey.Produce, 7, { acks: 1, timeoutMs: 1000, topicData: [{ name: 'pipe', partitionData: [{ index: 0, records: buildRecordBatch([{ value: Buffer.from('behind') }]) }] }] });
    const fetch = decodeResponse((await c.nextFrame())!, ApiKey.Fetch, 11, fetchId) as any;
    // Kafka reads the Produce only once the Fetch is answered, at its max wait, with no records.
    expect(fetch.responses[0].partitions[0].records?.length ?? 0).toBe(0);
    const produce = decodeResponse((await c.nextFrame())!, ApiKey.Produce, 7, produceId) as any;
    expect(produce.responses[0].partitionResponses[0]).toMatchObject({ errorCode: 0, baseOffset: end });
  });

  test('many Produce requests in one write are each answered, in order, with consecutive offsets (acks=all and acks=0 mixed)', async () => {
    const c = await connect();
    const p = kafka.cluster.partition('pipe', 0)!;
    const start = p.logEndOffset;
    const ids: number[] = [];
    c.socket.cork();
    for (let i = 0; i < 200; i++) {
      const acks = i % 10 === 9 ? 0 : -1;
      const id = c.send(ApiKey.Produce, 7, { acks, timeoutMs: 1000, topicData: [{ name: 'pipe', partitionData: [{ index: 0, records: buildRecordBatch([{ value: Buffer.from(`m${i}`) }]) }] }] });
      if (acks !== 0) ids.push(id);
    }
    c.socket.uncork();
    const offsets: number[] = [];
    for (const id of ids) {
      const res = decodeResponse((await c.nextFrame())!, ApiKey.Produce, 7, id) as any;
      expect(res.responses[0].partitionResponses[0].errorCode).toBe(0);
      offsets.push(res.responses[0].partitionResponses[0].baseOffset);
    }
    // Every tenth request (acks=0) has no answer but still takes its offset, in order.
    expect(offsets).toEqual(Array.from({ length: 200 }, (_, i) => start + i).filter((_, i) => i % 10 !== 9));
    expect(p.logEndOffset).toBe(start + 200);
  });
});

// While a connection is muted nothing is read from it, so a frame begun before the mute is not a slow client's:
// the requestTimeoutMs bound on a begun frame (slow-clients.test.ts) must not count the muted time.
describe.each([
  ['directly', false],
  ['through the proxy', true],
])('requestTimeoutMs %s', (_how, proxy) => {
  test('a request pipelined behind a long-polling Fetch is not cut off as a slow frame while the broker does not read', async () => {
    const k = await startCluster({ brokers: 1, proxy, logLevel: 'silent', requestTimeoutMs: 300, topics: [{ name: 'flood', partitions: 1, configs: { 'max.message.bytes': String(2 << 20) } }] });
    const c = await WireClient.connect(k.bootstrap);
    try {
      const end = k.cluster.partition('flood', 0)!.logEndOffset;
      // The Fetch parks 1.5 s, five times the bound; 48 MB of Produce behind it fill every buffer on the way,
      // so the bytes the broker (and the proxy, once the broker pushes back) has read end inside a frame.
      const fetchId = c.send(ApiKey.Fetch, 11, { maxWaitMs: 1500, minBytes: 1, maxBytes: 1 << 20, isolationLevel: 0, sessionEpoch: -1, topics: [{ topic: 'flood', partitions: [{ partition: 0, fetchOffset: end, partitionMaxBytes: 1 << 20 }] }] });
      const value = Buffer.alloc(1 << 20, 7);
      const produceIds: number[] = [];
      for (let i = 0; i < 48; i++) produceIds.push(c.send(ApiKey.Produce, 7, { acks: 1, timeoutMs: 1000, topicData: [{ name: 'flood', partitionData: [{ index: 0, records: buildRecordBatch([{ value }]) }] }] }));
      expect(correlationOf((await c.nextFrame(10_000))!)).toBe(fetchId);
      for (const id of produceIds) {
        const res = decodeResponse((await c.nextFrame(10_000))!, ApiKey.Produce, 7, id) as any;
        expect(res.responses[0].partitionResponses[0].errorCode).toBe(0);
      }
      expect(c.closed).toBe(false);
      expect(k.cluster.partition('flood', 0)!.logEndOffset).toBe(end + 48);
    } finally {
      c.close();
      await k.stop();
    }
  });
});
