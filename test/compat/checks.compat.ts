// The suite's checks must be able to fail: broken reports and broken logs,
// built by hand on a model cluster (no sockets, no clients), are caught.
import { appendRecords } from '../../src/broker/append.js';
import { buildRecordBatch } from '../../src/protocol/record-batch.js';
import { modelCluster } from '../support/cluster.js';
import { topicLog, type GroupTrace } from './broker-view.js';
import { scenarios, type DriverReport, type ReadRecord, type ScenarioId } from './scenarios.js';

const scenario = (id: ScenarioId) => scenarios.find((s) => s.id === id)!;
const value = (tag: string, i: number) => `${tag}-${String(i).padStart(6, '0')}`;

/** A 3-partition topic holding `tag` messages 0..n-1 at partition i % 3, in batches of `per`. */
function setup(tag: string, n: number, opts: { idempotent?: boolean; per?: number } = {}) {
  const { cluster } = modelCluster();
  cluster.createTopic('t', { numPartitions: 3 });
  const t = cluster.topic('t')!;
  const per = opts.per ?? 10;
  const seq = [0, 0, 0];
  for (let p = 0; p < 3; p++) {
    const mine = Array.from({ length: n }, (_, i) => i).filter((i) => i % 3 === p);
    for (let b = 0; b < mine.length; b += per) {
      const records = mine.slice(b, b + per).map((i) => ({ key: `k${i}`, value: value(tag, i) }));
      const batch = opts.idempotent ? buildRecordBatch(records, { producerId: 7, producerEpoch: 0, baseSequence: seq[p]! }) : buildRecordBatch(records);
      seq[p]! += records.length;
      const r = appendRecords(cluster, t, t.partitions[p]!, { records: batch, produceVersion: 7, acks: 1, clientId: 'test' });
      if (r.error !== 'NONE') throw new Error(`append failed: ${r.error} ${r.errorMessage}`);
    }
  }
  const log = topicLog(cluster, 't');
  const read: ReadRecord[] = log.records.map((r) => [r.partition, r.offset, r.value]);
  return { cluster, log, read };
}

function check(id: ScenarioId, report: Partial<DriverReport>, env: ReturnType<typeof setup>, trace: GroupTrace | null = null) {
  return scenario(id).check({ report: { ok: true, errors: [], ...report }, cluster: env.cluster, topic: 't', group: 'g', txnId: 'x', log: env.log, trace });
}

test('produce/fetch: a faithful report passes; loss, duplicates, disorder and wrong values fail', () => {
  const env = setup('produce-fetch', 200);
  expect(check('produce-fetch', { produced: 200, read: env.read }, env)).toEqual([]);
  expect(check('produce-fetch', { produced: 200, read: env.read.slice(1) }, env).join()).toMatch(/did not read 1 record/);
  expect(check('produce-fetch', { produced: 200, read: [...env.read, env.read[5]!] }, env).join()).toMatch(/read 1 record twice/);
  const swapped = [...env.read];
  [swapped[0], swapped[1]] = [swapped[1]!, swapped[0]!];
  expect(check('produce-fetch', { produced: 200, read: swapped }, env).join()).toMatch(/out of offset order/);
  expect(check('produce-fetch', { produced: 200, read: env.read.map(([p, o, v], i) => [p, o, i === 3 ? 'x' : v] as ReadRecord) }, env).join()).toMatch(/differ from the broker's log/);
  expect(check('produce-fetch', { produced: 199, read: env.read }, env).join()).toMatch(/acknowledged 199/);
  // The log itself is checked against what was sent: 199 logged messages are one short.
  const short = setup('produce-fetch', 199);
  expect(check('produce-fetch', { produced: 200, read: short.read }, short).join()).toMatch(/log lacks 1 sent message/);
});

test('idempotent: batches without a producer id fail', () => {
  const good = setup('idempotent', 200, { idempotent: true });
  expect(check('idempotent', { produced: 200, read: good.read }, good)).toEqual([]);
  const plain = setup('idempotent', 200);
  expect(check('idempotent', { produced: 200, read: plain.read }, plain).join()).toMatch(/without a producer id/);
});

test('metadata: a wrong broker list or leader fails', () => {
  const env = setup('x', 3);
  const t = env.cluster.topic('t')!;
  const partitions = t.partitions.map((p) => ({ id: p.index, leader: p.leader }));
  expect(check('metadata', { brokers: [0, 1, 2], controller: env.cluster.controllerId, partitions }, env)).toEqual([]);
  expect(check('metadata', { brokers: [0, 1], partitions }, env).join()).toMatch(/brokers \[0,1\]/);
  expect(check('metadata', { brokers: [0, 1, 2], partitions: partitions.map((p) => ({ ...p, leader: (p.leader + 1) % 3 })) }, env).join()).toMatch(/leader/);
});

test('group: one member reading everything, or no Stable split seen by the broker, fails', () => {
  const env = setup('group', 200);
  const byPartition = (ps: number[]) => env.read.filter(([p]) => ps.includes(p));
  const members = [
    { name: 'a', assigned: [0, 1], read: byPartition([0, 1]) },
    { name: 'b', assigned: [2], read: byPartition([2]) },
  ];
  const trace = { maxMembers: 2, stableSplit: { generationId: 2, assignments: [[0, 1], [2]] } };
  // The model topic has 3 partitions, the scenario 4: the split check must complain about that alone.
  const problems = check('group', { produced: 200, assignedBeforeProduce: [[0, 1], [2]], members }, env, trace);
  expect(problems.join()).toMatch(/do not split partitions 0\.\.3/);
  expect(problems.join()).toMatch(/committed offset none/);
  const greedy = check('group', { produced: 200, assignedBeforeProduce: [[0, 1], [2]], members: [{ ...members[0]!, read: env.read }, { ...members[1]!, read: [] }] }, env, null);
  expect(greedy.join()).toMatch(/member b read nothing/);
  expect(greedy.join()).toMatch(/member a read \d+ records from partitions it was not assigned/);
  expect(greedy.join()).toMatch(/never had a Stable generation/);
});
