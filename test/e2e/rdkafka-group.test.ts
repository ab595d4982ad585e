// A librdkafka consumer (python3-confluent-kafka, test/clients/rdkafka_group.py)
// and a kafkajs consumer in one group over real sockets: librdkafka leads and
// assigns with its "roundrobin" assignor, kafkajs follows with an assigner of
// the same name, the partitions are shared, each reads its own, commits land,
// and when librdkafka leaves, kafkajs takes everything.
import { execFileSync, spawn, type ChildProcessByStdio } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { PartitionAssigners, type Consumer, type EachMessagePayload, type PartitionAssigner } from 'kafkajs';
import { startCluster, type RunningCluster } from '../../src/index.js';
import type { GroupDescription } from '../../src/broker/groups/group-coordinator.js';
import { groupWhere as waitForGroup } from '../support/group-state.js';
import { kafkajs } from '../support/kafkajs.js';

const PYTHON = '/usr/bin/python3';
const KAFKAJS = 'kafkajs-member';

function hasConfluentKafka(): boolean {
  try {
    execFileSync(PYTHON, ['-c', 'import confluent_kafka'], { stdio: 'ignore', timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
}

// A skipped test cannot fail: in CI a missing client is a failure with the install hint.
const available = hasConfluentKafka();
if (!available && process.env.CI === 'true') throw new Error('python3-confluent-kafka is missing: apt-get install -y python3-confluent-kafka (see test/clients/README.md)');
const maybe = available ? test : test.skip;

let kafka: RunningCluster;
beforeAll(async () => {
  kafka = await startCluster({ brokers: 3 });
  kafka.cluster.groups.config['group.min.session.timeout.ms'] = 1000;
});
afterAll(() => kafka.stop());

/** Resolves when the broker's view of the group satisfies `ok`. */
const groupWhere = (groupId: string, ok: (d: GroupDescription) => boolean) => waitForGroup(kafka.cluster, groupId, ok, 30_000);

const owned = (d: GroupDescription, clientId: string) =>
  d.members
    .filter((m) => m.clientId === clientId)
    .flatMap((m) => (m.assignment ?? []).flatMap((a) => a.partitions))
    .sort();

/** The python member's JSON lines, and waiting for one that matches. */
class PythonMember {
  readonly events: any[] = [];
  private waiters: { ok: (e: any) => boolean; resolve: (e: any) => void }[] = [];
  readonly exited: Promise<number | null>;
  private stderr = '';

  constructor(readonly child: ChildProcessByStdio<Writable, Readable, Readable>) {
    // Its progress log, kept for failure messages rather than printed.
    child.stderr.setEncoding('utf8').on('data', (d: string) => (this.stderr = (this.stderr + d).slice(-4000)));
    createInterface({ input: child.stdout }).on('line', (line) => {
      const e = JSON.parse(line);
      this.events.push(e);
      this.waiters = this.waiters.filter((w) => (w.ok(e) ? (w.resolve(e), false) : true));
    });
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  }

  next(ok: (e: any) => boolean, what: string, timeoutMs = 30_000): Promise<any> {
    const seen = this.events.find(ok);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`librdkafka member: no ${what}; events ${JSON.stringify(this.events)}\n${this.stderr}`)), timeoutMs);
      this.waiters.push({ ok, resolve: (e) => (clearTimeout(t), resolve(e)) });
    });
  }
}

maybe('librdkafka and kafkajs share the partitions of one group, each reads its own, and the survivor takes all', async () => {
  const topic = 'mixed';
  const group = 'mixed-group';
  kafka.cluster.createTopic(topic, { numPartitions: 4, replicationFactor: 3 });
  const client = kafkajs(kafka.bootstrap, KAFKAJS);

  const py = new PythonMember(
    spawn(PYTHON, ['test/clients/rdkafka_group.py', kafka.bootstrap, topic, group, '--timeout', '60', '--session-timeout-ms', '6000', '--heartbeat-interval-ms', '300'], {
      stdio: ['pipe', 'pipe', 'pipe'],
    }),
  );
  let c: Consumer | undefined;
  try {
    await py.next((e) => e.event === 'assigned' && e.partitions.length === 4, 'first assignment of all 4 partitions');

    // kafkajs joins with an assigner named like librdkafka's, so the two agree on a protocol.
    const roundrobin: PartitionAssigner = (config) => ({ ...PartitionAssigners.roundRobin(config), name: 'roundrobin' });
    c = client.consumer({ groupId: group, partitionAssigners: [roundrobin], sessionTimeout: 6000, rebalanceTimeout: 6000, heartbeatInterval: 300, maxWaitTimeInMs: 100 });
    const mine: string[] = [];
    await c.connect();
    await c.subscribe({ topic, fromBeginning: true });
    await c.run({ eachMessage: async ({ partition, message }: EachMessagePayload) => void mine.push(`${partition}:${message.offset}`) });

    const shared = await groupWhere(group, (d) => d.state === 'Stable' && d.members.length === 2 && owned(d, KAFKAJS).length > 0 && owned(d, 'kafkaesque-rdkafka-group').length > 0);
    const ours = owned(shared, KAFKAJS);
    const theirs = owned(shared, 'kafkaesque-rdkafka-group');
    expect([...ours, ...theirs].sort()).toEqual([0, 1, 2, 3]);
    expect(shared.protocolName).toBe('roundrobin');
    // librdkafka joined first, so it leads and ran the assignment.
    expect(shared.members.find((m) => m.memberId === shared.leaderId)!.clientId).toBe('kafkaesque-rdkafka-group');
    await py.next((e) => e.event === 'assigned' && e.partitions.join() === theirs.join(), `assignment ${theirs}`);

    const producer = client.producer();
    await producer.connect();
    await producer.send({ topic, acks: -1, messages: Array.from({ length: 40 }, (_, i) => ({ partition: i % 4, value: `m${i}` })) });
    await producer.disconnect();

    // Each side reads the 10 messages of each of its partitions, and commits them.
    await py.next((e) => e.event === 'progress' && e.consumed === theirs.length * 10, `${theirs.length * 10} messages`);
    await groupWhere(group, () => [0, 1, 2, 3].every((p) => kafka.cluster.groups.committedOffset(group, topic, p) === 10));
    expect(mine.map((m) => Number(m.split(':')[0])).every((p) => ours.includes(p))).toBe(true);
    expect(mine).toHaveLength(ours.length * 10);

    py.child.stdin.end('stop\n');
    const summary = await py.next((e) => e.event === 'summary', 'summary');
    expect(summary).toMatchObject({ ok: true, count: theirs.length * 10, errors: [] });
    expect(Object.keys(summary.consumed).map(Number).sort()).toEqual(theirs);
    for (const offsets of Object.values(summary.consumed)) expect(offsets).toEqual(Array.from({ length: 10 }, (_, i) => i));
    expect(await py.exited).toBe(0);

    // librdkafka left the group (LeaveGroup on close): kafkajs now owns all four partitions.
    await groupWhere(group, (d) => d.state === 'Stable' && d.members.length === 1 && owned(d, KAFKAJS).length === 4);
  } finally {
    py.child.kill('SIGKILL');
    await c?.disconnect();
  }
}, 60_000);
