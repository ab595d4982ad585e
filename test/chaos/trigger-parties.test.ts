// Triggers that count per party (`per`) and per life stage (`stage`), on the
// controller: which requests fire, that bad parameters are refused naming
// the field, and that the same seed and traffic give the same faults.
import { ApiKey } from '../../src/protocol/messages/index.js';
import { parseTrigger } from '../../src/chaos/triggers.js';
import { engine, produceBody, proxied } from './helpers.js';

const commit = (groupId: string, offset = 1) => proxied(ApiKey.OffsetCommit, 8, { groupId, generationIdOrMemberEpoch: 1, memberId: 'm', groupInstanceId: null, topics: [{ name: 't', partitions: [{ partitionIndex: 0, committedOffset: offset, committedLeaderEpoch: -1, committedMetadata: null }] }] });
const sync = (groupId: string) => proxied(ApiKey.SyncGroup, 5, { groupId, generationId: 1, memberId: 'm', groupInstanceId: null, protocolType: 'consumer', protocolName: 'range', assignments: [] });
const heartbeat = (groupId: string) => proxied(ApiKey.Heartbeat, 4, { groupId, generationId: 1, memberId: 'm', groupInstanceId: null });
const fetch = (offset: number, clientId = 'app') =>
  proxied(ApiKey.Fetch, 11, { replicaId: -1, maxWaitMs: 100, minBytes: 1, maxBytes: 1000, isolationLevel: 0, sessionId: 0, sessionEpoch: -1, topics: [{ topic: 't', partitions: [{ partition: 0, currentLeaderEpoch: -1, fetchOffset: offset, logStartOffset: -1, partitionMaxBytes: 1000 }] }], forgottenTopicsData: [], rackId: '' }, { clientId });
const fired = (chaos: ReturnType<typeof engine>['chaos'], reqs: ReturnType<typeof proxied>[]) => reqs.map((r) => chaos.onRequest(r) !== null);

test("nth per group fires on every group's n-th request, not once in all", () => {
  const { chaos } = engine();
  chaos.addRule({ match: { api: 'OffsetCommit' }, trigger: { type: 'nth', n: 1, per: 'group' }, action: { type: 'close' } });
  expect(fired(chaos, [commit('a'), commit('a'), commit('b'), commit('b'), commit('c')])).toEqual([true, false, true, false, true]);
  expect(chaos.rules()[0]).toMatchObject({ matched: 5, fired: 3 });
});

test('times caps the firings of each party; a request that names no party of the kind is not counted', () => {
  const { chaos } = engine();
  chaos.addRule({ trigger: { type: 'always', per: 'producerId', times: 1 }, action: { type: 'close' } });
  expect(fired(chaos, [proxied(ApiKey.Produce, 9, produceBody()), heartbeat('g')])).toEqual([false, false]);
  expect(chaos.rules()[0]).toMatchObject({ matched: 0 });
});

test("stage 'stable' and 'committed': requests count only once the party has got there, from the next request on", () => {
  const { chaos } = engine();
  chaos.addRule({ id: 'stable', match: { api: 'Heartbeat' }, trigger: { type: 'nth', n: 1, per: 'group', stage: 'stable' }, action: { type: 'close' } });
  chaos.addRule({ id: 'committed', match: { api: 'OffsetCommit' }, trigger: { type: 'nth', n: 1, per: 'group', stage: 'committed' }, action: { type: 'close' } });
  expect(fired(chaos, [heartbeat('g'), sync('g'), heartbeat('g'), heartbeat('g')])).toEqual([false, false, true, false]);
  expect(fired(chaos, [commit('g'), commit('g'), commit('g')])).toEqual([false, true, false]);
});

test('stage { fetched: n }: after the party has fetched n records', () => {
  const { chaos } = engine();
  chaos.addRule({ match: { api: 'Fetch' }, trigger: { type: 'nth', n: 1, per: 'clientId', stage: { fetched: 5 } }, action: { type: 'close' } });
  expect(fired(chaos, [fetch(10), fetch(12), fetch(15), fetch(16), fetch(0, 'other')])).toEqual([false, false, false, true, false]);
});

test('per-party probability: the same seed and traffic fire the same faults, whatever the order of parties', () => {
  const run = (seed: number, groups: string[]) => {
    const { chaos } = engine(seed);
    chaos.addRule({ id: 'p', match: { api: 'Heartbeat' }, trigger: { type: 'probability', p: 0.5, per: 'group' }, action: { type: 'close' } });
    const out: Record<string, boolean[]> = {};
    for (const g of groups) (out[g] ??= []).push(chaos.onRequest(heartbeat(g)) !== null);
    return out;
  };
  const a = run(3, ['x', 'y', 'x', 'y', 'x', 'y', 'x', 'y']);
  // Each group draws from its own stream: interleaving differently changes nothing for either.
  expect(run(3, ['x', 'x', 'x', 'x', 'y', 'y', 'y', 'y'])).toEqual(a);
  expect([run(4, ['x', 'x', 'x', 'x']).x, run(5, ['x', 'x', 'x', 'x']).x, run(6, ['x', 'x', 'x', 'x']).x]).not.toEqual([a.x, a.x, a.x]);
});

test('bad per and stage are refused naming the field', () => {
  expect(() => parseTrigger({ type: 'nth', n: 1, per: 'member' })).toThrow("trigger.per: must be one of 'group', 'clientId', 'producerId', 'transactionalId', 'connection', 'topic', got \"member\"");
  expect(() => parseTrigger({ type: 'always', stage: 'joined' })).toThrow(/^trigger.stage: must be 'stable', 'committed' or \{ fetched: n \}/);
  expect(() => parseTrigger({ type: 'always', stage: { fetched: 0 } })).toThrow('trigger.stage.fetched: must be at least 1, got 0');
});
