// Each action's outcome as a value, and the cluster actions' effect on the
// model: no sockets anywhere.
import { chaosActions, type ActionResult } from '../../src/chaos/actions/index.js';
import { SeededRandom } from '../../src/chaos/random.js';
import { ProxiedRequest } from '../../src/chaos/request.js';
import { ApiKey } from '../../src/protocol/messages/index.js';
import { ErrorCode } from '../../src/protocol/errors.js';
import { buildRecordBatch } from '../../src/protocol/record-batch.js';
import { modelCluster, produce } from '../support/cluster.js';
import { produceBody, proxied } from './helpers.js';

const nodeIds = [0, 1, 2];

function fire(type: string, params: Record<string, unknown> = {}, opts: { request?: ReturnType<typeof proxied>; cluster?: ReturnType<typeof modelCluster>['cluster']; seed?: number } = {}): ActionResult {
  const module = chaosActions.get(type)!;
  const parsed = module.parse({ type, ...params }, { nodeIds });
  return module.fire(parsed, {
    request: opts.request ?? proxied(ApiKey.Produce, 9, produceBody('t', 0), { nodeId: 1 }),
    cluster: opts.cluster ?? modelCluster().cluster,
    random: new SeededRandom(opts.seed ?? 1).fork('rule-1'),
  });
}

test('every action is registered once, by its type, and declares its parameters', () => {
  expect([...chaosActions.keys()].sort()).toEqual(['blackhole', 'close', 'corrupt', 'delay', 'drop-response', 'duplicate-fetch', 'error', 'expire-producer', 'expire-share-locks', 'fence', 'metadata-lag', 'min-insync-replicas', 'move-leader', 'pause-replication', 'rebalance', 'replication-lag', 'rewind', 'shrink-isr', 'slice', 'start-node', 'stop-node', 'throttle']);
  for (const [type, a] of chaosActions) {
    expect(a.type).toBe(type);
    expect(a.layer).toBe('frame');
    expect(a.summary.length).toBeGreaterThan(10);
  }
});

test('drop-response forwards the request and loses the answer, then closes (default) or hangs', () => {
  expect(fire('drop-response').outcome).toEqual({ request: { kind: 'forward' }, response: { kind: 'close' } });
  expect(fire('drop-response', { then: 'hang' }).outcome).toEqual({ request: { kind: 'forward' }, response: { kind: 'drop' } });
});

test('delay holds the response (default) or the request, with seeded jitter', () => {
  expect(fire('delay', { ms: 50 })).toEqual({ outcome: { request: { kind: 'forward' }, response: { kind: 'forward', delayMs: 50 } }, detail: { direction: 'response', ms: 50 } });
  expect(fire('delay', { ms: 50, direction: 'request' }).outcome).toEqual({ request: { kind: 'forward', delayMs: 50 } });
  const jittered = (seed: number) => Array.from({ length: 20 }, () => (fire('delay', { ms: 100, jitterMs: 40 }, { seed }).outcome.response as { delayMs: number }).delayMs);
  const a = jittered(3);
  expect(jittered(3)).toEqual(a);
  for (const ms of a) expect(ms >= 100 && ms <= 140).toBe(true);
});

test('delay jitter draws from the stream: successive firings differ, the same seed repeats them', () => {
  const module = chaosActions.get('delay')!;
  const params = module.parse({ type: 'delay', ms: 0, jitterMs: 1000 }, { nodeIds });
  const run = (seed: number) => {
    const random = new SeededRandom(seed).fork('r');
    const request = proxied(ApiKey.Fetch, 11, { topics: [] });
    return Array.from({ length: 10 }, () => (module.fire(params, { request, cluster: modelCluster().cluster, random }).detail as { ms: number }).ms);
  };
  expect(new Set(run(9)).size).toBeGreaterThan(5);
  expect(run(9)).toEqual(run(9));
  expect(run(10)).not.toEqual(run(9));
});

test('error answers before the broker (default) or replaces its answer (after); names or numbers', () => {
  expect(fire('error', { code: 'NOT_LEADER_OR_FOLLOWER' })).toEqual({
    outcome: { request: { kind: 'error', errorCode: ErrorCode.NOT_LEADER_OR_FOLLOWER } },
    detail: { code: 'NOT_LEADER_OR_FOLLOWER', when: 'before' },
  });
  expect(fire('error', { code: 45, when: 'after' })).toEqual({
    outcome: { request: { kind: 'forward' }, response: { kind: 'error', errorCode: 45 } },
    detail: { code: 'OUT_OF_ORDER_SEQUENCE_NUMBER', when: 'after' },
  });
});

test('error accepts at least every code the stories need', () => {
  const names = [
    'NOT_LEADER_OR_FOLLOWER', 'LEADER_NOT_AVAILABLE', 'REQUEST_TIMED_OUT', 'NOT_ENOUGH_REPLICAS', 'NOT_ENOUGH_REPLICAS_AFTER_APPEND',
    'OUT_OF_ORDER_SEQUENCE_NUMBER', 'DUPLICATE_SEQUENCE_NUMBER', 'UNKNOWN_PRODUCER_ID', 'INVALID_PRODUCER_EPOCH', 'PRODUCER_FENCED',
    'CONCURRENT_TRANSACTIONS', 'COORDINATOR_NOT_AVAILABLE', 'NOT_COORDINATOR', 'COORDINATOR_LOAD_IN_PROGRESS', 'REBALANCE_IN_PROGRESS',
    'UNKNOWN_MEMBER_ID', 'ILLEGAL_GENERATION', 'NETWORK_EXCEPTION', 'KAFKA_STORAGE_ERROR',
  ] as const;
  // A Produce never gets PRODUCER_FENCED from a broker: it says INVALID_PRODUCER_EPOCH.
  for (const name of names) expect(fire('error', { code: name }).outcome.request).toEqual({ kind: 'error', errorCode: ErrorCode[name === 'PRODUCER_FENCED' ? 'INVALID_PRODUCER_EPOCH' : name] });
});

test('error: the producer-state errors apply only to a Produce with a producer id; PRODUCER_FENCED takes the name its version knows', () => {
  const module = chaosActions.get('error')!;
  const oos = module.parse({ type: 'error', code: 'OUT_OF_ORDER_SEQUENCE_NUMBER' }, { nodeIds });
  const plain = proxied(ApiKey.Produce, 9, produceBody('t', 0));
  expect(module.appliesTo!(oos, plain)).toBe(false);
  const idempotent = proxied(ApiKey.Produce, 9, { ...produceBody('t', 0), topicData: [{ name: 't', partitionData: [{ index: 0, records: buildRecordBatch([{ value: Buffer.from('x') }], { producerId: 7, producerEpoch: 0, baseSequence: 0 }) }] }] });
  expect(module.appliesTo!(oos, idempotent)).toBe(true);
  const endTxn = (version: number) => proxied(ApiKey.EndTxn, version, { transactionalId: 'tx', producerId: 7, producerEpoch: 0, committed: true });
  expect(fire('error', { code: 'PRODUCER_FENCED' }, { request: endTxn(1) }).outcome.request).toEqual({ kind: 'error', errorCode: ErrorCode.INVALID_PRODUCER_EPOCH });
  expect(fire('error', { code: 'PRODUCER_FENCED' }, { request: endTxn(3) }).outcome.request).toEqual({ kind: 'error', errorCode: ErrorCode.PRODUCER_FENCED });
});

test('replication-lag, pause-replication, shrink-isr and min-insync-replicas set the conditions on the model, then forward', () => {
  const { cluster } = modelCluster();
  cluster.createTopic('r', { numPartitions: 1, replicationFactor: 3 });
  const leader = cluster.partition('r', 0)!.leader;
  expect(fire('replication-lag', { ms: 250 }, { cluster })).toEqual({ outcome: { request: { kind: 'forward' } }, detail: { ms: 250 } });
  expect(cluster.options.replicationLagMs).toBe(250);
  const request = proxied(ApiKey.Produce, 9, produceBody('r', 0), { nodeId: leader });
  const paused = fire('pause-replication', {}, { cluster, request });
  expect(paused.detail).toEqual({ nodeIds: [0, 1, 2].filter((n) => n !== leader), resume: false });
  const shrunk = fire('shrink-isr', {}, { cluster, request });
  expect(shrunk.detail).toEqual({ topic: 'r', isr: { 0: [leader] } });
  expect(cluster.partition('r', 0)!.isr).toEqual([leader]);
  expect(fire('min-insync-replicas', { value: 2 }, { cluster, request }).detail).toEqual({ topic: 'r', value: 2 });
  expect(cluster.minInsyncReplicas(cluster.topics.get('r')!)).toBe(2);
  expect(() => chaosActions.get('replication-lag')!.parse({ type: 'replication-lag', ms: -1 }, { nodeIds })).toThrow(/action.ms/);
});

test('error on a request it cannot decode resets the connection instead', () => {
  const whole = proxied(ApiKey.Produce, 9, produceBody());
  const broken = new ProxiedRequest(whole.frame.subarray(0, 12), ApiKey.Produce, 9, 1, 0, 1);
  expect(fire('error', { code: 6 }, { request: broken }).outcome).toEqual({ request: { kind: 'close' } });
});

test('close resets instead of forwarding', () => {
  expect(fire('close').outcome).toEqual({ request: { kind: 'close' } });
});

test('move-leader elects on the model, then forwards', () => {
  const { cluster } = modelCluster();
  cluster.createTopic('t', { numPartitions: 1, replicationFactor: 3 });
  const before = cluster.partition('t', 0)!;
  const epoch = before.leaderEpoch;
  const r = fire('move-leader', { topic: 't', partition: 0, to: 2 }, { cluster });
  expect(r.outcome).toEqual({ request: { kind: 'forward' } });
  expect(before.leader).toBe(2);
  expect(before.leaderEpoch).toBe(epoch + 1);
  expect(r.detail).toMatchObject({ topic: 't', partition: 0, leader: 2, unclean: false });
  // A refusal from the model is reported, and the request still goes on.
  const bad = fire('move-leader', { topic: 'nope', partition: 0 }, { cluster });
  expect(bad).toMatchObject({ outcome: { request: { kind: 'forward' } }, detail: { error: 'UNKNOWN_TOPIC_OR_PARTITION' } });
});

test('move-leader unclean truncates to what the new leader has', () => {
  const { cluster } = modelCluster();
  cluster.createTopic('u', { numPartitions: 1, replicationFactor: 2 });
  const p = cluster.partition('u', 0)!;
  const follower = p.replicas.find((r) => r !== p.leader)!;
  produce(cluster, 'u', 0, 2);
  cluster.pauseReplication(follower);
  cluster.shrinkIsr('u', 0, follower);
  produce(cluster, 'u', 0, 3, 1);
  const r = fire('move-leader', { topic: 'u', partition: 0, to: follower, unclean: true }, { cluster });
  expect(r.detail).toMatchObject({ leader: follower, unclean: true, truncatedFrom: 2 });
  expect(p.logEndOffset).toBe(2);
});

test('stop-node stops the node the request went to by default, and that request dies with it', () => {
  const { cluster } = modelCluster();
  const r = fire('stop-node', {}, { cluster, request: proxied(ApiKey.Fetch, 11, { topics: [] }, { nodeId: 1 }) });
  expect(r.outcome).toEqual({ request: { kind: 'close' } });
  expect(cluster.isAlive(1)).toBe(false);
  const other = fire('stop-node', { nodeId: 2 }, { cluster, request: proxied(ApiKey.Fetch, 11, { topics: [] }, { nodeId: 0 }) });
  expect(other.outcome).toEqual({ request: { kind: 'forward' } });
  expect(cluster.isAlive(2)).toBe(false);
  expect(fire('start-node', { nodeId: 1 }, { cluster }).outcome).toEqual({ request: { kind: 'forward' } });
  expect(cluster.isAlive(1)).toBe(true);
});

test('fence bumps the epoch of a transactional id', () => {
  const { cluster } = modelCluster();
  const init = cluster.transactions.initProducerId('tx', 60_000, -1, -1);
  const epoch = cluster.transactions.get('tx')!.producerEpoch;
  expect(fire('fence', { transactionalId: 'tx' }, { cluster })).toEqual({ outcome: { request: { kind: 'forward' } }, detail: { transactionalId: 'tx', result: 'NONE' } });
  expect(cluster.transactions.get('tx')!.producerEpoch).toBe(epoch + 1);
  expect(init).toBeDefined();
  expect(fire('fence', { transactionalId: 'unknown' }, { cluster }).detail).toEqual({ transactionalId: 'unknown', result: 'TRANSACTIONAL_ID_NOT_FOUND' });
});

test('expire-producer forgets a producer id on a partition, a topic, or everywhere', () => {
  const { cluster } = modelCluster();
  cluster.createTopic('a', { numPartitions: 2, replicationFactor: 1 });
  cluster.createTopic('b', { numPartitions: 1, replicationFactor: 1 });
  const now = cluster.clock.now();
  const seed = (pid: number) => {
    for (const [t, p] of [['a', 0], ['a', 1], ['b', 0]] as const) {
      cluster.partition(t, p)!.producers.recordAppend({ producerId: pid, producerEpoch: 0, baseSequence: 0, lastOffsetDelta: 0, transactional: false }, 0, now);
    }
  };
  const known = (pid: number) => (['a-0', 'a-1', 'b-0'] as const).filter((tp) => cluster.partition(tp.slice(0, 1), Number(tp.slice(2)))!.producers.get(pid) !== undefined);
  seed(7);
  expect(fire('expire-producer', { producerId: 7, topic: 'a', partition: 1 }, { cluster }).detail).toEqual({ producerId: 7, expired: ['a-1'] });
  expect(known(7)).toEqual(['a-0', 'b-0']);
  expect(fire('expire-producer', { producerId: 7, topic: 'a' }, { cluster }).detail).toEqual({ producerId: 7, expired: ['a-0'] });
  seed(8);
  const all = fire('expire-producer', { producerId: 8 }, { cluster });
  expect(all.outcome).toEqual({ request: { kind: 'forward' } });
  expect(all.detail).toEqual({ producerId: 8, expired: ['a-0', 'a-1', 'b-0'] });
  expect(known(8)).toEqual([]);
});

test("expire-share-locks makes a share group's locks run out (the sender's only, with sender), then forwards", () => {
  const { cluster } = modelCluster({ brokers: 1 });
  cluster.createTopic('s', { numPartitions: 1, replicationFactor: 1 });
  produce(cluster, 's', 0, 3);
  const topic = cluster.topic('s')!;
  const p = topic.partitions[0]!;
  cluster.groupConfigs.set('g', 'share.auto.offset.reset', 'earliest');
  const sp = cluster.shares.getOrCreate('g', topic, p);
  sp.acquire('m1', p.log.read(0, p.highWatermark, 1 << 20, true), 1);
  const ackFrom = (memberId: string) =>
    proxied(ApiKey.ShareAcknowledge, 1, { groupId: 'g', memberId, shareSessionEpoch: 1, isRenewAck: false, topics: [{ topicId: topic.topicId, partitions: [{ partitionIndex: 0, acknowledgementBatches: [{ firstOffset: 0, lastOffset: 0, acknowledgeTypes: [1] }] }] }] });
  const other = fire('expire-share-locks', { sender: true }, { cluster, request: ackFrom('m2') });
  expect(other).toMatchObject({ outcome: { request: { kind: 'forward' } }, detail: { groupId: 'g', memberId: 'm2', released: 0 } });
  expect(sp.recordState(0)).toMatchObject({ state: 'ACQUIRED', memberId: 'm1' });
  const mine = fire('expire-share-locks', { sender: true }, { cluster, request: ackFrom('m1') });
  expect(mine.detail).toEqual({ groupId: 'g', memberId: 'm1', released: 3 });
  expect(sp.recordState(0)).toMatchObject({ state: 'AVAILABLE', deliveryCount: 1, memberId: '' });
  expect(fire('expire-share-locks', { groupId: 'none' }, { cluster }).detail).toEqual({ groupId: 'none', released: 0 });
});
