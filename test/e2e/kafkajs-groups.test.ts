// kafkajs consumer groups over real sockets against a 3-broker cluster: one
// member, a second joining, one leaving, one evicted by its session timeout,
// a new member resuming from committed offsets, manual and automatic commits,
// eachMessage and eachBatch, the admin group APIs, and the coordinator's node
// stopping. Consumers use short sessions and heartbeats (the tests are not
// about kafkajs's defaults); group.min.session.timeout.ms is lowered to allow
// a 2-second session, as a broker config would.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Consumer, EachBatchPayload, EachMessagePayload, Kafka } from 'kafkajs';
import { startCluster, type RunningCluster } from '../../src/index.js';
import type { GroupDescription } from '../../src/broker/groups/group-coordinator.js';
import { groupWhere as waitForGroup } from '../support/group-state.js';
import { createTopics, kafkajs } from '../support/kafkajs.js';

let kafka: RunningCluster;
let client: Kafka;
const started: Consumer[] = [];

beforeAll(async () => {
  kafka = await startCluster({ brokers: 3 });
  kafka.cluster.groups.config['group.min.session.timeout.ms'] = 1000;
  client = kafkajs(kafka.bootstrap);
});
afterAll(async () => {
  // A consumer a failed test left running must not hold the suite: bounded disconnects.
  const bounded = (p: Promise<unknown>) => Promise.race([p.catch(() => {}), new Promise((r) => setTimeout(r, 3000).unref())]);
  await Promise.all(started.map((c) => bounded(c.disconnect())));
  await kafka.stop();
});

const SESSION_MS = 2000;

function consumer(groupId: string, extra: Partial<Parameters<Kafka['consumer']>[0]> = {}): Consumer {
  const c = client.consumer({ groupId, sessionTimeout: SESSION_MS, rebalanceTimeout: 4000, heartbeatInterval: 200, maxWaitTimeInMs: 100, retry: { retries: 20, initialRetryTime: 50, maxRetryTime: 500 }, ...extra });
  started.push(c);
  return c;
}

async function createTopic(topic: string, partitions: number) {
  await createTopics(client, { topic, numPartitions: partitions, replicationFactor: 3 });
}

/** Sends `perPartition` messages to each partition; values are "p<partition>-<n>" with n counting on from `from`. */
async function produce(topic: string, partitions: number, perPartition: number, from = 0) {
  const producer = client.producer();
  await producer.connect();
  const messages = [];
  for (let n = from; n < from + perPartition; n++) for (let p = 0; p < partitions; p++) messages.push({ partition: p, value: `p${p}-${n}` });
  await producer.send({ topic, acks: -1, messages });
  await producer.disconnect();
}

/** Messages a consumer processed, and a way to wait for a count without sleeping. */
class Seen {
  readonly values: string[] = [];
  private waiters: { n: number; resolve: () => void }[] = [];
  add(value: string) {
    this.values.push(value);
    this.waiters = this.waiters.filter((w) => (this.values.length >= w.n ? (w.resolve(), false) : true));
  }
  until(n: number, timeoutMs = 20_000): Promise<void> {
    if (this.values.length >= n) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`saw ${this.values.length} of ${n} messages`)), timeoutMs);
      this.waiters.push({ n, resolve: () => (clearTimeout(t), resolve()) });
    });
  }
  partitions(values = this.values): number[] {
    return [...new Set(values.map((v) => Number(v.slice(1, v.indexOf('-')))))].sort();
  }
}

/** Resolves when the broker's view of the group satisfies `ok`. */
const groupWhere = (groupId: string, ok: (d: GroupDescription) => boolean) => waitForGroup(kafka.cluster, groupId, ok, 20_000);

/** Stable, with n members that each own some partitions, all of them together. */
const stableWith = (groupId: string, n: number, partitions: number) =>
  groupWhere(groupId, (d) => {
    if (d.state !== 'Stable' || d.members.length !== n) return false;
    const owned = d.members.map((m) => (m.assignment ?? []).flatMap((a) => a.partitions));
    return owned.every((o) => o.length > 0) && owned.flat().length === partitions && new Set(owned.flat()).size === partitions;
  });

const committedEach = (groupId: string, topic: string, partitions: number, offset: number) =>
  groupWhere(groupId, () => Array.from({ length: partitions }, (_, p) => kafka.cluster.groups.committedOffset(groupId, topic, p)).every((o) => o === offset));

const ownedBy = (d: GroupDescription, memberIndex: number) => d.members[memberIndex]!.assignment!.flatMap((a) => a.partitions).sort();

test('one member reads from the beginning; a second joins and the partitions split; the one leaving hands all back; nothing lost or read twice (eachMessage, auto commit)', async () => {
  const topic = 'split';
  await createTopic(topic, 4);
  await produce(topic, 4, 10);

  const s1 = new Seen();
  const c1 = consumer('split-group');
  await c1.connect();
  await c1.subscribe({ topic, fromBeginning: true });
  await c1.run({ eachMessage: async ({ message }: EachMessagePayload) => s1.add(message.value!.toString()) });
  await s1.until(40);
  const alone = await stableWith('split-group', 1, 4);
  expect(alone.members[0]!.clientId).toBe('kafkaesque-test');
  // Auto commit lands for everything read, before anyone else takes over.
  await committedEach('split-group', topic, 4, 10);

  const s2 = new Seen();
  const c2 = consumer('split-group');
  await c2.connect();
  await c2.subscribe({ topic, fromBeginning: true });
  await c2.run({ eachMessage: async ({ message }: EachMessagePayload) => s2.add(message.value!.toString()) });
  const split = await stableWith('split-group', 2, 4);
  expect(split.generationId).toBeGreaterThan(alone.generationId);
  expect(ownedBy(split, 0)).toHaveLength(2);

  await produce(topic, 4, 10, 10);
  await Promise.all([s1.until(60), s2.until(20)]);
  // Each member read the new messages of its own partitions only.
  const c2Member = split.members.find((m) => m.memberId !== alone.members[0]!.memberId)!;
  expect(s2.partitions()).toEqual(c2Member.assignment!.flatMap((a) => a.partitions).sort());
  expect(s1.partitions(s1.values.slice(40)).filter((p) => s2.partitions().includes(p))).toEqual([]);

  await c2.disconnect();
  const back = await stableWith('split-group', 1, 4);
  expect(back.members[0]!.memberId).toBe(alone.members[0]!.memberId);
  await produce(topic, 4, 5, 20);
  await s1.until(80);
  const all = [...s1.values, ...s2.values].sort();
  expect(all).toHaveLength(100);
  expect(new Set(all).size).toBe(100);
  await c1.disconnect();
  await groupWhere('split-group', (d) => d.state === 'Empty');
});

test('a member that stops heartbeating (its process killed) is evicted after its session timeout, and the other takes its partitions', async () => {
  const topic = 'crash';
  await createTopic(topic, 4);
  const evictions: { memberId: string; reason: string }[] = [];
  kafka.cluster.groups.on('member-removed', (e) => e.groupId === 'crash-group' && evictions.push({ memberId: e.memberId, reason: e.reason }));

  const healthy = new Seen();
  const c1 = consumer('crash-group');
  await c1.connect();
  await c1.subscribe({ topic, fromBeginning: true });
  await c1.run({ eachMessage: async ({ message }: EachMessagePayload) => healthy.add(message.value!.toString()) });
  await stableWith('crash-group', 1, 4);

  // The second member runs in a process of its own, which is killed once it has its partitions.
  const child = spawn(process.execPath, ['test/e2e/kafkajs-member.mjs', kafka.bootstrap, topic, 'crash-group', String(SESSION_MS)], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const lines = createInterface({ input: child.stdout! });
    const doomed = await new Promise<string>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error('the child member never got partitions')), 20_000);
      lines.on('line', (l) => {
        const e = JSON.parse(l);
        if (e.event === 'joined' && e.partitions.length > 0) {
          clearTimeout(t);
          resolve(e.memberId);
        }
      });
    });
    await stableWith('crash-group', 2, 4);
    child.kill('SIGKILL');
    await produce(topic, 4, 3);

    // No LeaveGroup came: only the session timeout removes it; the survivor then owns all four partitions.
    const after = await stableWith('crash-group', 1, 4);
    expect(evictions).toEqual([{ memberId: doomed, reason: 'session-timeout' }]);
    expect(after.members[0]!.memberId).not.toBe(doomed);
    await healthy.until(12);
    expect(new Set(healthy.values).size).toBe(12);
  } finally {
    child.kill('SIGKILL');
    await c1.disconnect();
  }
});

test('a new member resumes from the committed offsets: nothing lost, nothing read twice (eachBatch, manual commits)', async () => {
  const topic = 'resume';
  await createTopic(topic, 3);
  await produce(topic, 3, 20);

  // The first member processes 30 of the 60 messages, committing each one itself, then stops.
  const first: string[] = [];
  const c1 = consumer('resume-group');
  await c1.connect();
  await c1.subscribe({ topic, fromBeginning: true });
  let stopped!: () => void;
  const enough = new Promise<void>((r) => (stopped = r));
  await c1.run({
    autoCommit: false,
    eachBatchAutoResolve: false,
    eachBatch: async ({ batch, resolveOffset, heartbeat, pause }: EachBatchPayload) => {
      for (const m of batch.messages) {
        if (first.length >= 30) {
          pause();
          stopped();
          return;
        }
        first.push(m.value!.toString());
        resolveOffset(m.offset);
        await c1.commitOffsets([{ topic: batch.topic, partition: batch.partition, offset: String(Number(m.offset) + 1) }]);
        await heartbeat();
      }
    },
  });
  await enough;
  await c1.disconnect();
  const committed = kafka.cluster.groups.committedOffsets('resume-group');
  // Manual commits landed: exactly what was processed, partition by partition.
  for (let p = 0; p < 3; p++) {
    const processed = first.filter((v) => v.startsWith(`p${p}-`)).length;
    expect(committed.find((o) => o.partition === p)?.offset ?? 0).toBe(processed);
  }

  const second = new Seen();
  const c2 = consumer('resume-group');
  await c2.connect();
  await c2.subscribe({ topic, fromBeginning: true });
  await c2.run({
    eachBatch: async ({ batch }: EachBatchPayload) => {
      for (const m of batch.messages) second.add(m.value!.toString());
    },
  });
  await second.until(30);
  await committedEach('resume-group', topic, 3, 20);
  await c2.disconnect();
  const all = [...first, ...second.values];
  expect(all).toHaveLength(60);
  expect(new Set(all).size).toBe(60);
});

test('auto commits by threshold land, and the admin client sees the group, its members and its offsets', async () => {
  const topic = 'auto';
  await createTopic(topic, 2);
  await produce(topic, 2, 25);
  const seen = new Seen();
  const c = consumer('auto-group');
  await c.connect();
  await c.subscribe({ topic, fromBeginning: true });
  await c.run({ autoCommitThreshold: 10, eachMessage: async ({ message }: EachMessagePayload) => seen.add(message.value!.toString()) });
  await seen.until(50);
  await committedEach('auto-group', topic, 2, 25);

  const admin = client.admin();
  await admin.connect();
  try {
    const { groups } = await admin.describeGroups(['auto-group']);
    expect(groups[0]).toMatchObject({ groupId: 'auto-group', state: 'Stable', protocolType: 'consumer', protocol: 'RoundRobinAssigner' });
    expect(groups[0]!.members[0]).toMatchObject({ clientId: 'kafkaesque-test', clientHost: '/127.0.0.1' });
    expect((await admin.listGroups()).groups).toContainEqual({ groupId: 'auto-group', protocolType: 'consumer' });
    const offsets = await admin.fetchOffsets({ groupId: 'auto-group', topics: [topic] });
    expect(offsets[0]!.partitions.map((p) => [p.partition, p.offset]).sort()).toEqual([[0, '25'], [1, '25']]);
    await expect(admin.deleteGroups(['auto-group'])).rejects.toThrow();
    await c.disconnect();
    await groupWhere('auto-group', (d) => d.state === 'Empty');
    expect(await admin.deleteGroups(['auto-group'])).toEqual([expect.objectContaining({ groupId: 'auto-group', errorCode: 0 })]);
    expect(kafka.cluster.groups.describe('auto-group')).toBeUndefined();
  } finally {
    await admin.disconnect();
  }
});

test("the coordinator's node stops: the group moves with the partition leadership and keeps consuming from its committed offsets", async () => {
  const topic = 'moving-group';
  await createTopic(topic, 3);
  await produce(topic, 3, 5);
  const seen = new Seen();
  // kafkajs keeps calling the dead coordinator until its retries run out, then restarts and looks it up again: few, short retries.
  const c = consumer('moving-group', { retry: { retries: 3, initialRetryTime: 50, maxRetryTime: 200 } });
  await c.connect();
  await c.subscribe({ topic, fromBeginning: true });
  await c.run({ eachMessage: async ({ message }: EachMessagePayload) => seen.add(message.value!.toString()) });
  await seen.until(15);
  await committedEach('moving-group', topic, 3, 5);
  const before = kafka.cluster.groups.coordinatorFor(0, 'moving-group');
  await kafka.stopNode(before);
  try {
    expect(kafka.cluster.groups.coordinatorFor(0, 'moving-group')).not.toBe(before);
    await produce(topic, 3, 5, 5);
    await seen.until(30);
    const d = await stableWith('moving-group', 1, 3);
    expect(d.coordinator).not.toBe(before);
    await committedEach('moving-group', topic, 3, 10);
    expect(new Set(seen.values).size).toBe(30);
  } finally {
    await c.disconnect();
    await kafka.startNode(before);
  }
});
