// Rules as data: what addRule accepts, what it refuses (naming the field),
// and how a rule's match selects requests.
import { RuleValidationError, type FaultRuleInput } from '../../src/chaos/api.js';
import { ChaosEngine } from '../../src/chaos/controller.js';
import { ProxiedRequest } from '../../src/chaos/request.js';
import { ApiKey } from '../../src/protocol/messages/index.js';
import { silentLogger } from '../../src/logger.js';
import { modelCluster } from '../support/cluster.js';
import { engine, produceBody, proxied } from './helpers.js';

function refusal(input: unknown): RuleValidationError {
  const { chaos } = engine();
  try {
    chaos.addRule(input as FaultRuleInput);
  } catch (err) {
    if (err instanceof RuleValidationError) return err;
    throw err;
  }
  throw new Error(`accepted ${JSON.stringify(input)}`);
}

const close = { type: 'close' };

test.each<[string, unknown, string]>([
  ['not an object', 'close', 'rule'],
  ['an unknown top-level field', { action: close, when: 'now' }, 'rule.when'],
  ['no action', {}, 'action'],
  ['an empty id', { id: '', action: close }, 'id'],
  ['a description that is not text', { description: 5, action: close }, 'description'],
  ['an unknown match field', { match: { topics: ['a'] }, action: close }, 'match.topics'],
  ['an unknown node', { match: { nodeId: 7 }, action: close }, 'match.nodeId'],
  ['an unknown node in a list', { match: { nodeId: [0, 9] }, action: close }, 'match.nodeId[1]'],
  ['an unknown API name', { match: { api: 'Produc' }, action: close }, 'match.api'],
  ['a bad API in a list', { match: { api: ['Fetch', -1] }, action: close }, 'match.api[1]'],
  ['a version range upside down', { match: { versions: { min: 5, max: 3 } }, action: close }, 'match.versions.max'],
  ['a bad client id regex', { match: { clientId: { regex: '(' } }, action: close }, 'match.clientId.regex'],
  ['a client id that is neither', { match: { clientId: 3 }, action: close }, 'match.clientId'],
  ['a partition without a topic', { match: { partition: 0 }, action: close }, 'match.partition'],
  ['an empty group id', { match: { groupId: '' }, action: close }, 'match.groupId'],
  ['a bad trigger', { trigger: { type: 'nth', n: 0 }, action: close }, 'trigger.n'],
  ['an unknown action', { action: { type: 'explode' } }, 'action.type'],
  ['an action without a type', { action: {} }, 'action.type'],
  ['an unknown action parameter', { action: { type: 'close', ms: 5 } }, 'action.ms'],
  ['drop-response then', { action: { type: 'drop-response', then: 'later' } }, 'action.then'],
  ['delay without ms', { action: { type: 'delay' } }, 'action.ms'],
  ['delay with negative jitter', { action: { type: 'delay', ms: 5, jitterMs: -1 } }, 'action.jitterMs'],
  ['delay direction', { action: { type: 'delay', ms: 5, direction: 'sideways' } }, 'action.direction'],
  ['error without a code', { action: { type: 'error' } }, 'action.code'],
  ['error with an unknown name', { action: { type: 'error', code: 'NOT_A_KAFKA_ERROR' } }, 'action.code'],
  ['error NONE', { action: { type: 'error', code: 0 } }, 'action.code'],
  ['error when', { action: { type: 'error', code: 6, when: 'during' } }, 'action.when'],
  ['move-leader without a topic', { action: { type: 'move-leader', partition: 0 } }, 'action.topic'],
  ['move-leader without a partition', { action: { type: 'move-leader', topic: 't' } }, 'action.partition'],
  ['move-leader to an unknown node', { action: { type: 'move-leader', topic: 't', partition: 0, to: 5 } }, 'action.to'],
  ['move-leader unclean not boolean', { action: { type: 'move-leader', topic: 't', partition: 0, unclean: 'yes' } }, 'action.unclean'],
  ['stop-node on an unknown node', { action: { type: 'stop-node', nodeId: 3 } }, 'action.nodeId'],
  ['start-node with a bad node id', { action: { type: 'start-node', nodeId: -1 } }, 'action.nodeId'],
  ['fence without a transactional id', { action: { type: 'fence' } }, 'action.transactionalId'],
  ['expire-producer without a producer id', { action: { type: 'expire-producer' } }, 'action.producerId'],
  ['expire-producer partition without topic', { action: { type: 'expire-producer', producerId: 1, partition: 0 } }, 'action.partition'],
])('refuses %s, naming %s', (_what, input, field) => {
  const err = refusal(input);
  expect(err.field).toBe(field);
  expect(err.message.startsWith(`${field}: `)).toBe(true);
});

test('a duplicate id is refused; generated ids skip the taken ones', () => {
  const { chaos } = engine();
  expect(chaos.addRule({ id: 'rule-1', action: close }).id).toBe('rule-1');
  expect(() => chaos.addRule({ id: 'rule-1', action: close })).toThrow(RuleValidationError);
  expect(chaos.addRule({ action: close }).id).toBe('rule-2');
});

test('an added rule comes back normalised, with counters at zero, and is a copy', () => {
  const { chaos, clock } = engine();
  const rule = chaos.addRule({ description: 'd', match: { api: 'Produce', topic: 't' }, action: { type: 'delay', ms: 10 } });
  expect(rule).toEqual({
    id: 'rule-1',
    description: 'd',
    match: { api: 'Produce', topic: 't' },
    trigger: { type: 'always' },
    action: { type: 'delay', ms: 10 },
    createdAt: clock.now(),
    matched: 0,
    fired: 0,
  });
  rule.fired = 99;
  expect(chaos.rule('rule-1')!.fired).toBe(0);
  expect(chaos.rules().map((r) => r.id)).toEqual(['rule-1']);
});

test('without the proxy, every rule is refused', () => {
  const { cluster } = modelCluster();
  const chaos = new ChaosEngine({ cluster, seed: 1, log: silentLogger, proxyEnabled: false });
  expect(chaos.proxy).toBe(false);
  expect(() => chaos.addRule({ action: close })).toThrow(RuleValidationError);
});

describe('match', () => {
  const matches = (match: unknown, req: ReturnType<typeof proxied>) => {
    const { chaos } = engine();
    chaos.addRule({ id: 'm', match: match as never, action: { type: 'delay', ms: 1 } });
    chaos.onRequest(req);
    return chaos.rule('m')!.matched === 1;
  };
  const produce = proxied(ApiKey.Produce, 9, produceBody('orders', 2, -1, 'tx-1'), { nodeId: 1, clientId: 'billing-7' });

  test('absent fields match anything', () => expect(matches(undefined, produce)).toBe(true));
  test('node id, one or several', () => {
    expect(matches({ nodeId: 1 }, produce)).toBe(true);
    expect(matches({ nodeId: [0, 2] }, produce)).toBe(false);
  });
  test('api by name (any case) or key', () => {
    expect(matches({ api: 'Produce' }, produce)).toBe(true);
    expect(matches({ api: 'produce' }, produce)).toBe(true);
    expect(matches({ api: [1, 0] }, produce)).toBe(true);
    expect(matches({ api: 'Fetch' }, produce)).toBe(false);
  });
  test('version range, inclusive', () => {
    expect(matches({ versions: { min: 9, max: 9 } }, produce)).toBe(true);
    expect(matches({ versions: { max: 8 } }, produce)).toBe(false);
    expect(matches({ versions: { min: 10 } }, produce)).toBe(false);
  });
  test('client id exact or by regex', () => {
    expect(matches({ clientId: 'billing-7' }, produce)).toBe(true);
    expect(matches({ clientId: 'billing' }, produce)).toBe(false);
    expect(matches({ clientId: { regex: '^billing-\\d+$' } }, produce)).toBe(true);
    expect(matches({ clientId: { regex: '^orders' } }, produce)).toBe(false);
  });
  test('topic and partition from the body', () => {
    expect(matches({ topic: 'orders' }, produce)).toBe(true);
    expect(matches({ topic: 'orders', partition: 2 }, produce)).toBe(true);
    expect(matches({ topic: 'orders', partition: 0 }, produce)).toBe(false);
    expect(matches({ topic: 'other' }, produce)).toBe(false);
    // Metadata names a whole topic, never a partition.
    const meta = proxied(ApiKey.Metadata, 9, { topics: [{ name: 'orders' }] });
    expect(matches({ topic: 'orders' }, meta)).toBe(true);
    expect(matches({ topic: 'orders', partition: 0 }, meta)).toBe(false);
  });
  test('transactional id and group id from the body, across the APIs that carry them', () => {
    expect(matches({ transactionalId: 'tx-1' }, produce)).toBe(true);
    expect(matches({ transactionalId: 'tx-2' }, produce)).toBe(false);
    const commit = proxied(ApiKey.TxnOffsetCommit, 3, { transactionalId: 'tx-1', groupId: 'g', topics: [{ name: 'orders', partitions: [{ partitionIndex: 1 }] }] });
    expect(matches({ groupId: 'g', transactionalId: 'tx-1', topic: 'orders', partition: 1 }, commit)).toBe(true);
    const find = proxied(ApiKey.FindCoordinator, 4, { keyType: 1, coordinatorKeys: ['tx-1'] });
    expect(matches({ transactionalId: 'tx-1' }, find)).toBe(true);
    expect(matches({ groupId: 'tx-1' }, find)).toBe(false);
    const findGroup = proxied(ApiKey.FindCoordinator, 2, { key: 'g', keyType: 0 });
    expect(matches({ groupId: 'g' }, findGroup)).toBe(true);
    const add = proxied(ApiKey.AddPartitionsToTxn, 3, { v3AndBelowTransactionalId: 'tx-1', v3AndBelowTopics: [{ name: 'orders', partitions: [4] }] });
    expect(matches({ transactionalId: 'tx-1', topic: 'orders', partition: 4 }, add)).toBe(true);
    const join = proxied(ApiKey.JoinGroup, 5, { groupId: 'g', protocolType: 'consumer', protocols: [] });
    expect(matches({ groupId: 'g' }, join)).toBe(true);
  });
  test('Fetch v13+ names topics by id; the match still uses the name', () => {
    const { chaos, cluster } = engine();
    const topic = cluster.createTopic('ids', { numPartitions: 1 });
    if (!topic.ok) throw new Error(topic.message);
    chaos.addRule({ id: 'f', match: { topic: 'ids', partition: 0 }, action: { type: 'delay', ms: 1 } });
    const frame = proxied(ApiKey.Fetch, 13, { topics: [{ topicId: topic.value.topicId, partitions: [{ partition: 0 }] }] }).frame;
    const req = new ProxiedRequest(frame, ApiKey.Fetch, 13, frame.readInt32BE(4), 0, 1, (id) => cluster.topicById(id)?.name);
    chaos.onRequest(req);
    expect(chaos.rule('f')!.matched).toBe(1);
  });
});
