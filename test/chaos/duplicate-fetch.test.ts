// duplicate-fetch: the action's outcome as a value (fetch offsets moved back,
// never before the log start), and the request rewrite the proxy core applies.
import { chaosActions } from '../../src/chaos/actions/index.js';
import { SeededRandom } from '../../src/chaos/random.js';
import { rewriteRequest } from '../../src/chaos/rewrite.js';
import { ApiKey, apiSchemas } from '../../src/protocol/messages/index.js';
import { readHeader } from '../../src/protocol/headers.js';
import { Reader } from '../../src/protocol/primitives.js';
import { modelCluster, produce } from '../support/cluster.js';
import { engine, proxied } from './helpers.js';

const fetchBody = (parts: [topic: string, partition: number, offset: number][]) => ({
  maxWaitMs: 0,
  minBytes: 1,
  maxBytes: 1 << 20,
  isolationLevel: 0,
  sessionEpoch: -1,
  topics: [...new Set(parts.map(([t]) => t))].map((topic) => ({
    topic,
    partitions: parts.filter(([t]) => t === topic).map(([, partition, fetchOffset]) => ({ partition, fetchOffset, partitionMaxBytes: 1 << 20 })),
  })),
});

function setup() {
  const { cluster } = modelCluster();
  cluster.createTopic('a', { numPartitions: 2, replicationFactor: 1 });
  cluster.createTopic('b', { numPartitions: 1, replicationFactor: 1 });
  for (const [t, p] of [['a', 0], ['a', 1], ['b', 0]] as const) produce(cluster, t, p, 10);
  return cluster;
}

function fire(params: Record<string, unknown>, request: ReturnType<typeof proxied>, cluster = setup()) {
  const module = chaosActions.get('duplicate-fetch')!;
  return module.fire(module.parse({ type: 'duplicate-fetch', ...params }, { nodeIds: [0] }), { request, cluster, random: new SeededRandom(1).fork('rule-1') });
}

test('moves every fetch offset back by `by`, not before the log start, and says what moved', () => {
  const req = proxied(ApiKey.Fetch, 11, fetchBody([['a', 0, 8], ['a', 1, 2], ['b', 0, 0]]));
  expect(fire({ by: 3 }, req)).toEqual({
    outcome: { request: { kind: 'forward', rewrite: [{ type: 'fetch-offsets', offsets: [{ topicIndex: 0, partitionIndex: 0, fetchOffset: 5 }, { topicIndex: 0, partitionIndex: 1, fetchOffset: 0 }] }] } },
    detail: { by: 3, offsets: [{ topic: 'a', partition: 0, from: 8, to: 5 }, { topic: 'a', partition: 1, from: 2, to: 0 }] },
  });
});

test('topic and partition narrow it; nothing to move, or not a Fetch, forwards untouched', () => {
  const req = proxied(ApiKey.Fetch, 11, fetchBody([['a', 0, 8], ['a', 1, 8], ['b', 0, 8]]));
  expect(fire({ by: 1, topic: 'a', partition: 1 }, req).detail).toEqual({ by: 1, offsets: [{ topic: 'a', partition: 1, from: 8, to: 7 }] });
  expect(fire({ by: 1, topic: 'b' }, req).detail).toEqual({ by: 1, offsets: [{ topic: 'b', partition: 0, from: 8, to: 7 }] });
  expect(fire({ by: 1 }, proxied(ApiKey.Fetch, 11, fetchBody([['a', 0, 0]])))).toEqual({ outcome: { request: { kind: 'forward' } }, detail: { by: 1, offsets: [] } });
  // Caught up (nothing at or past the position): an answer of old records only is not one a broker sends.
  expect(fire({ by: 1 }, proxied(ApiKey.Fetch, 11, fetchBody([['a', 0, 10], ['b', 0, 12]]))).detail).toEqual({ by: 1, offsets: [] });
  expect(fire({ by: 1 }, proxied(ApiKey.Metadata, 9, { topics: null })).outcome).toEqual({ request: { kind: 'forward' } });
});

test('topics named by id (Fetch v13+) are found', () => {
  const cluster = setup();
  const topicId = cluster.topic('a')!.topicId;
  const body = fetchBody([['', 0, 4]]);
  (body.topics[0] as any).topicId = topicId;
  expect(fire({ by: 2 }, proxied(ApiKey.Fetch, 13, body), cluster).detail).toEqual({ by: 2, offsets: [{ topic: 'a', partition: 0, from: 4, to: 2 }] });
});

test('rewriteRequest sets the fetch offsets and keeps everything else', () => {
  const req = proxied(ApiKey.Fetch, 12, fetchBody([['a', 0, 8], ['a', 1, 8]]), { clientId: 'dup' });
  const out = rewriteRequest(req.frame, ApiKey.Fetch, 12, [{ type: 'fetch-offsets', offsets: [{ topicIndex: 0, partitionIndex: 1, fetchOffset: 3 }] }]);
  const r = new Reader(out);
  const api = apiSchemas.get(ApiKey.Fetch)!;
  expect(readHeader(r, api, 12)).toMatchObject({ correlationId: req.correlationId, clientId: 'dup' });
  const body = api.readRequest(r, 12) as any;
  expect(body.topics[0].partitions.map((p: any) => [p.partition, p.fetchOffset, p.partitionMaxBytes])).toEqual([
    [0, 8, 1 << 20],
    [1, 3, 1 << 20],
  ]);
});

test.each<[Record<string, unknown>, string]>([
  [{ type: 'duplicate-fetch' }, 'action.by'],
  [{ type: 'duplicate-fetch', by: 0 }, 'action.by'],
  [{ type: 'duplicate-fetch', by: 1, partition: 0 }, 'action.partition'],
  [{ type: 'duplicate-fetch', by: 1, topic: '' }, 'action.topic'],
])('refuses %j, naming %s', (action, field) => {
  const { chaos } = engine();
  expect(() => chaos.addRule({ action: action as { type: string } })).toThrow(expect.objectContaining({ field }));
});

test('with corrupt on the same Fetch, both rewrites apply: the request is moved back and its answer corrupted', () => {
  const { chaos, cluster } = engine();
  cluster.createTopic('a', { numPartitions: 1, replicationFactor: 1 });
  produce(cluster, 'a', 0, 10);
  chaos.addRule({ action: { type: 'duplicate-fetch', by: 4 } });
  chaos.addRule({ action: { type: 'corrupt' } });
  const d = chaos.onRequest(proxied(ApiKey.Fetch, 11, fetchBody([['a', 0, 6]])))!;
  expect(d.outcome).toEqual({
    request: { kind: 'forward', rewrite: [{ type: 'fetch-offsets', offsets: [{ topicIndex: 0, partitionIndex: 0, fetchOffset: 2 }] }] },
    response: { kind: 'forward', rewrite: [{ type: 'corrupt-crc' }] },
  });
  expect(d.delayRuleIds).toEqual([]);
});
