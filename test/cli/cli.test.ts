// The CLI verbs against a running instance: the built CLI (dist/cli.js, which
// `npm test` builds first) is spawned against a cluster started here, found
// by --url or KAFKAESQUE_URL. Exit codes (src/cli/exit-codes.ts): 0 ok,
// 1 a finding or a failure at run time, 2 usage, 3 input refused.
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCluster, type RunningCluster } from '../../src/index.js';
import { kafkajs } from '../support/kafkajs.js';

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

let kafka: RunningCluster;
const dir = mkdtempSync(join(tmpdir(), 'kafkaesque-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function cli(args: string[], env: Record<string, string | undefined> = { KAFKAESQUE_URL: kafka.controlUrl }, stdin?: string): Promise<Result> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, ['dist/cli.js', ...args], { env: { PATH: process.env.PATH, ...env }, timeout: 20_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? -1) : 0, stdout, stderr });
    });
    if (stdin !== undefined) child.stdin!.end(stdin);
  });
}
const json = (r: Result) => {
  expect(r).toMatchObject({ code: 0, stderr: '' });
  return JSON.parse(r.stdout);
};

beforeAll(async () => {
  kafka = await startCluster({ brokers: 2, seed: 11 });
});
afterEach(async () => {
  kafka.chaos.clearRules();
});
afterAll(() => kafka.stop());

describe('fault', () => {
  test('add from flags, JSON and --file; list; rm; clear', async () => {
    const flags = await cli(['fault', 'add', '--api', 'Produce', '--topic', 't', '--trigger', 'nth:1', '--action', 'drop-response', '--param', 'then=hang', '--json']);
    expect(json(flags)).toMatchObject({ match: { api: 'Produce', topic: 't' }, trigger: { type: 'nth', n: 1 }, action: { type: 'drop-response', then: 'hang' } });
    const perGroup = await cli(['fault', 'add', '--id', 'pg', '--api', 'OffsetCommit', '--trigger', 'nth:1', '--per', 'group', '--stage', 'fetched:10', '--action', 'drop-response', '--json']);
    expect(json(perGroup)).toMatchObject({ trigger: { type: 'nth', n: 1, per: 'group', stage: { fetched: 10 } } });
    expect(json(await cli(['fault', 'add', '--id', 'st', '--per', 'clientId', '--stage', 'stable', '--action', 'close', '--json']))).toMatchObject({ trigger: { type: 'always', per: 'clientId', stage: 'stable' } });
    await cli(['fault', 'rm', 'pg']);
    await cli(['fault', 'rm', 'st']);
    const fromJson = await cli(['fault', 'add', '{"id":"j","match":{"api":"Fetch"},"action":{"type":"delay","ms":5}}']);
    expect(fromJson).toMatchObject({ code: 0, stdout: expect.stringMatching(/^added j\t/) });
    const file = join(dir, 'rule.json');
    writeFileSync(file, JSON.stringify({ id: 'f', trigger: { type: 'probability', p: 0.5 }, action: { type: 'close' } }));
    expect(await cli(['fault', 'add', '--file', file, '--url', kafka.controlUrl], {})).toMatchObject({ code: 0 });
    expect(kafka.chaos.rules().map((r) => r.id)).toEqual([expect.any(String), 'j', 'f']);

    expect(json(await cli(['fault', 'list', '--json'])).map((r: { id: string }) => r.id)).toEqual(kafka.chaos.rules().map((r) => r.id));
    expect((await cli(['fault', 'list'])).stdout.trim().split('\n')).toHaveLength(3);
    expect(await cli(['fault', 'rm', 'j'])).toMatchObject({ code: 0, stdout: 'removed j\n' });
    expect(await cli(['fault', 'rm', 'j'])).toMatchObject({ code: 1, stderr: expect.stringMatching(/does not exist/) });
    expect(json(await cli(['fault', 'clear', '--json']))).toEqual({ removed: 2 });
    expect(kafka.chaos.rules()).toEqual([]);
  });

  test('a refused rule exits 3 naming the field and why; bad usage exits 2', async () => {
    const refused = await cli(['fault', 'add', '--action', 'delay', '--param', 'ms=-1']);
    expect(refused).toMatchObject({ code: 3, stdout: '', stderr: 'kafkaesque: refused: action.ms: must be at least 0, got -1\n' });
    expect(await cli(['fault', 'add', '--api', 'Produse', '--action', 'close'])).toMatchObject({ code: 3, stderr: expect.stringContaining('refused: match.api: unknown API') });
    const notJson = join(dir, 'not-json.json');
    writeFileSync(notJson, '{"action":');
    expect(await cli(['fault', 'add', '--file', notJson])).toMatchObject({ code: 3, stderr: expect.stringContaining(`${notJson} is not JSON`) });
    // --file - reads the rule from stdin.
    expect(await cli(['fault', 'add', '--file', '-', '--json'], undefined, '{"id":"from-stdin","action":{"type":"close"}}')).toMatchObject({ code: 0, stdout: expect.stringContaining('"id":"from-stdin"') });
    kafka.chaos.clearRules();
    const usage = await Promise.all([
      cli(['fault', 'add', '--action', 'close', '--trigger', 'sometimes']),
      cli(['fault', 'add', '{"action":{"type":"close"}}', '--action', 'close']),
      cli(['fault', 'add', '{not json']),
      cli(['fault', 'add', '--bogus']),
      cli(['fault', 'add', '--action', 'close', '--times', 'abc']),
      cli(['fault', 'add', '--file', join(dir, 'no-such-file.json')]),
      cli(['fault']),
      cli(['fault', 'list'], {}),
      cli(['frobnicate']),
      cli(['fault', 'add', '--action', 'close', '--node', '0', '--node', 'x']),
      cli(['fault', 'add', '--action', 'close', '--per', 'member']),
      cli(['fault', 'add', '--action', 'close', '--stage', 'fetched:x']),
    ]);
    for (const r of usage) expect(r).toMatchObject({ code: 2, stderr: expect.stringMatching(/^kafkaesque: .*\n(.|\n)*--help/) });
    expect(usage[4]!.stderr).toMatch(/--times abc: must be a whole number from 1 to 2147483647/);
    expect(usage[7]!.stderr).toMatch(/KAFKAESQUE_URL/);
    expect(usage[9]!.stderr).toMatch(/^kafkaesque: --node x: must be a whole number from 0 to 2147483647/);
    expect(usage[10]!.stderr).toMatch(/^kafkaesque: --per member: expected group, clientId, producerId, transactionalId, connection, topic/);
    expect(usage[11]!.stderr).toMatch(/^kafkaesque: --stage fetched:x: expected stable, committed or fetched:N/);
    expect(kafka.chaos.rules()).toEqual([]);
  });

  test('an instance that is not there: exit 1', async () => {
    expect(await cli(['status'], { KAFKAESQUE_URL: 'http://127.0.0.1:9' })).toMatchObject({ code: 1, stderr: expect.stringMatching(/unreachable|ECONNREFUSED|is kafkaesque running/) });
  });
});

test('--url without a scheme is taken as http://; one that is no http URL is a usage error naming the flag', async () => {
  // Before: "Invalid URL".
  const bare = kafka.controlUrl.replace(/^http:\/\//, '');
  expect(json(await cli(['status', '--json', '--url', bare], {}))).toMatchObject({ cluster: { seed: 11 } });
  expect(json(await cli(['status', '--json'], { KAFKAESQUE_URL: bare }))).toMatchObject({ cluster: { seed: 11 } });
  expect(await cli(['status', '--url', 'ftp://127.0.0.1:1'], {})).toMatchObject({ code: 2, stderr: expect.stringMatching(/^kafkaesque: --url: control URL "ftp:\/\/127.0.0.1:1": the control API speaks http/) });
  expect(await cli(['status'], { KAFKAESQUE_URL: 'http://[nope' })).toMatchObject({ code: 2, stderr: expect.stringMatching(/^kafkaesque: KAFKAESQUE_URL: control URL "http:\/\/\[nope" is not a URL/) });
});

test('number flags and arguments of every verb are checked, naming the flag and the value: exit 2', async () => {
  const cases: [string[], RegExp][] = [
    [['events', '--since', 'abc'], /--since abc: must be a whole number from 0 to/],
    [['events', '--limit', '0'], /--limit 0: must be a whole number from 1 to/],
    [['events', '--limit'], /Not enough arguments following: limit/],
    [['topic', 'records', 'x', '--limit', '20000'], /--limit 20000: must be a whole number from 1 to 10000/],
    [['topic', 'records', 'x', '--partition', '1', '--partition', '2'], /--partition is given 2 times \(1, 2\); give it once/],
    [['topic', 'create', 'x', '--partitions', '-1'], /--partitions -1: must be a whole number from 1 to 10000/],
    [['leader', 'move', 'x', 'abc'], /<partition> abc: must be a whole number from 0 to/],
    [['node', 'stop', '1.5'], /<id> 1.5: must be a whole number from 0 to/],
  ];
  const results = await Promise.all(cases.map(([args]) => cli(args)));
  results.forEach((r, i) => expect([cases[i]![0].join(' '), r.code, r.stderr]).toEqual([cases[i]![0].join(' '), 2, expect.stringMatching(cases[i]![1])]));
});

test('topic create, list and records', async () => {
  expect(await cli(['topic', 'create', 'cli-orders', '--partitions', '2', '--config', 'retention.ms=1000'])).toMatchObject({ code: 0, stdout: 'created cli-orders: 2 partition(s), replication 2\n' });
  expect(await cli(['topic', 'create', 'cli-orders'])).toMatchObject({ code: 1, stderr: expect.stringMatching(/already exists/) });
  expect(json(await cli(['topic', 'list', '--json']))).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'cli-orders', partitions: 2 })]));
  expect(json(await cli(['topic', 'records', 'cli-orders', '--partition', '1', '--json']))).toMatchObject({ topic: 'cli-orders', partition: 1, records: [] });
  expect(await cli(['topic', 'records', 'nope'])).toMatchObject({ code: 1 });
});

test('node stop and start, leader move, events, status, reset', async () => {
  kafka.cluster.createTopic('cli-lead', { numPartitions: 1, replicationFactor: 2 });
  const since = kafka.chaos.events().at(-1)?.seq ?? 0;
  expect(json(await cli(['node', 'stop', '1', '--json']))).toMatchObject({ nodeId: 1, alive: false });
  expect(kafka.cluster.nodes.get(1)!.alive).toBe(false);
  expect(await cli(['node', 'start', '1'])).toMatchObject({ code: 0, stdout: expect.stringMatching(/^node 1 .* is up\n$/) });
  expect(await cli(['node', 'stop', '9'])).toMatchObject({ code: 1 });
  const leader = kafka.cluster.partition('cli-lead', 0)!.leader;
  expect(json(await cli(['leader', 'move', 'cli-lead', '0', '--json']))).toMatchObject({ leader: leader === 0 ? 1 : 0, leaderEpoch: expect.any(Number) });
  const events = json(await cli(['events', '--since', String(since), '--json']));
  expect(events.events.map((e: { kind: string }) => e.kind)).toEqual(expect.arrayContaining(['node-stopped', 'node-started', 'leader-changed']));
  expect((await cli(['events', '--since', String(since)])).stdout).toMatch(/\tnode-stopped\tnode 1\n/);

  await cli(['fault', 'add', '--action', 'close', '--api', 'Fetch']);
  const status = json(await cli(['status', '--json']));
  expect(status).toMatchObject({ cluster: { proxy: true, seed: 11 }, faults: [expect.objectContaining({ action: { type: 'close' } })] });
  expect((await cli(['status'])).stdout).toMatch(/seed 11[^]*node 0\t[^]*1 fault rule/);
  expect(json(await cli(['reset', '--json']))).toMatchObject({ rulesCleared: 1, topicsDeleted: expect.arrayContaining(['cli-lead']) });
});

test('events --follow prints events as they happen until interrupted', async () => {
  const since = kafka.chaos.events().at(-1)?.seq ?? 0;
  const child = spawn(process.execPath, ['dist/cli.js', 'events', '--follow', '--json', '--since', String(since), '--url', kafka.controlUrl], { stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    let out = '';
    // The leaderships the node held move first (each a leader-changed line), then node-stopped.
    const line = new Promise<string>((resolve) => child.stdout.on('data', (c: Buffer) => (out += c) && out.includes('"node-stopped"') && resolve(out)));
    await new Promise((r) => setTimeout(r, 300)); // the first long poll is waiting
    await kafka.stopNode(1);
    await kafka.startNode(1);
    const printed = (await line).split('\n').filter(Boolean).map((l) => JSON.parse(l));
    expect(printed.find((e) => e.kind !== 'leader-changed')).toMatchObject({ kind: 'node-stopped', nodeId: 1 });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.kill('SIGINT');
    expect(await exited).toBe(0);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
});

describe('preset', () => {
  test('list and show need no instance; apply by name and by path; a broken file exits 3 naming file, field and reason', async () => {
    const list = json(await cli(['preset', 'list', '--json'], {}));
    expect(list.map((p: { name: string }) => p.name)).toContain('lost-ack');
    expect(await cli(['preset', 'show', 'lost-ack'], {})).toMatchObject({ code: 0, stdout: expect.stringMatching(/^lost-ack\n[^]*rules:\n[^]*drop-response[^]*expect:\n/) });

    const mine = join(dir, 'my-story.json');
    writeFileSync(mine, JSON.stringify({ name: 'my-story', description: 'd', rules: [{ match: { api: 'Fetch' }, action: { type: 'close' } }], expect: 'e' }));
    const applied = json(await cli(['preset', 'apply', 'lost-ack', mine, '--json']));
    expect(applied.map((a: { preset: string }) => a.preset)).toEqual(['lost-ack', 'my-story']);
    // Rule ids say which preset they came from (before: rule-1, rule-2).
    expect(applied.map((a: { rules: { id: string }[] }) => a.rules.map((r) => r.id))).toEqual([['lost-ack-1'], ['my-story-1']]);
    expect(json(await cli(['preset', 'apply', 'lost-ack', '--json']))[0].rules.map((r: { id: string }) => r.id)).toEqual(['lost-ack-2']);
    kafka.chaos.removeRule('lost-ack-2');
    expect(kafka.chaos.rules().map((r) => r.action.type)).toEqual(['drop-response', 'close']);

    const broken = join(dir, 'broken.json');
    writeFileSync(broken, JSON.stringify({ name: 'broken', description: 'd', rules: [{ action: { type: 'delay', ms: 'soon' } }], expect: 'e' }));
    for (const verb of ['show', 'apply']) {
      expect(await cli(['preset', verb, broken])).toMatchObject({ code: 3, stderr: `kafkaesque: refused: ${broken}: rules[0].action.ms: must be a whole number, got "soon"\n` });
    }
    expect(await cli(['preset', 'apply', 'no-such-story'])).toMatchObject({ code: 3, stderr: expect.stringMatching(/no preset 'no-such-story' \(presets: .*lost-ack/) });
    expect(kafka.chaos.rules()).toHaveLength(2);
  });

  test("apply 'name?param=value' aims the preset; a parameter it does not take exits 3 (input refused) naming preset, parameter and why", async () => {
    kafka.chaos.clearRules();
    const applied = json(await cli(['preset', 'apply', 'redelivery?group=/^app-/', '--json']));
    expect(applied[0].rules.map((r: { match: unknown }) => r.match)).toEqual([
      { api: 'OffsetCommit', groupId: { regex: '^app-' } },
    ]);
    expect(await cli(['preset', 'apply', 'lost-ack?group=app'])).toMatchObject({ code: 3, stderr: 'kafkaesque: refused: preset lost-ack: params.group: is not a parameter of lost-ack (it takes: topic, clientId)\n' });
    expect(await cli(['preset', 'show', 'lost-ack'], {})).toMatchObject({ stdout: expect.stringContaining('params:\n  topic: ') });
    expect(kafka.chaos.rules()).toHaveLength(1);
    kafka.chaos.clearRules();
  });

  test('start --preset applies presets at start; a broken one stops the start with exit 3', async () => {
    const child = spawn(process.execPath, ['dist/cli.js', 'start', '--brokers', '1', '--port', '0', '--json', '--log-level', 'silent', '--preset', 'lost-ack?topic=orders', '--preset', 'flaky-network'], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      let out = '';
      const ready = await new Promise<{ controlUrl: string }>((resolve, reject) => {
        child.stdout.on('data', (c: Buffer) => (out += c).includes('\n') && resolve(JSON.parse(out)));
        child.on('exit', (code) => reject(new Error(`start exited ${code}`)));
      });
      const faults = json(await cli(['fault', 'list', '--json', '--url', ready.controlUrl], {}));
      expect(faults.map((r: { description: string }) => r.description.split(':')[0])).toEqual(['lost-ack', 'flaky-network']);
      expect(faults[0].match).toEqual({ api: 'Produce', topic: 'orders' });
      expect(faults.map((r: { id: string }) => r.id)).toEqual(['lost-ack-1', 'flaky-network-1']);
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    const broken = join(dir, 'broken.json');
    const failed = await cli(['start', '--brokers', '1', '--port', '0', '--log-level', 'silent', '--preset', broken], {});
    expect(failed).toMatchObject({ code: 3, stderr: expect.stringContaining(`${broken}: rules[0].action.ms`) });
  });
});

test('audit: exit 0 when every record was processed once, 1 naming what was lost and duplicated, 2 for a bad flag, 3 for input refused', async () => {
  const producer = kafkajs(kafka.bootstrap, 'cli-audit').producer({ idempotent: true });
  await producer.connect();
  await producer.send({ topic: 'audited', acks: -1, messages: ['o-0', 'o-1', 'o-2', 'o-3'].map((key) => ({ key, value: key })) });
  await producer.disconnect();
  const good = join(dir, 'processed.jsonl');
  writeFileSync(good, 'o-0\no-1\no-2\no-3\n');
  const ok = await cli(['audit', '--processed', good, '--topic', 'audited']);
  expect(ok).toMatchObject({ code: 0, stdout: expect.stringMatching(/^ok: 4 record\(s\) in audited, 4 processed; 0 anomalies/m) });
  const bad = join(dir, 'processed.json');
  writeFileSync(bad, JSON.stringify(['o-0', 'o-1', 'o-1', 'o-3']));
  const caught = await cli(['audit', '--processed', bad, '--topic', 'audited']);
  expect(caught.code).toBe(1);
  expect(caught.stdout).toMatch(/^duplicate\t.*o-1/m);
  expect(caught.stdout).toMatch(/^lost-write\t.*o-2/m);
  expect(caught.stdout).toMatch(/^NOT ok: 4 record\(s\)/m);
  const report = JSON.parse((await cli(['audit', '--processed', bad, '--topic', 'audited', '--json'])).stdout);
  expect(report.counts).toMatchObject({ duplicate: 1, 'lost-write': 1, processed: 4 });
  writeFileSync(join(dir, 'broken.jsonl'), '{"topic": \n');
  expect(await cli(['audit', '--processed', join(dir, 'broken.jsonl')])).toMatchObject({ code: 3, stderr: expect.stringMatching(/--processed .*broken.jsonl: a line is not JSON/) });
  // The instance refuses a record with no offset: input refused too (before: 1, as for an anomaly).
  writeFileSync(join(dir, 'no-offset.jsonl'), '{"topic":"audited","partition":0}\n');
  expect(await cli(['audit', '--processed', join(dir, 'no-offset.jsonl')])).toMatchObject({ code: 3, stderr: expect.stringMatching(/offset/) });
  expect(await cli(['audit', '--processed', join(dir, 'no-such-file')])).toMatchObject({ code: 2, stderr: expect.stringMatching(/ENOENT/) });
  // `-` reads stdin, as docs/cli.md says (before: "Unknown argument: -").
  expect(await cli(['audit', '--processed', '-', '--topic', 'audited'], undefined, 'o-0\no-1\no-2\no-3\n')).toMatchObject({ code: 0, stdout: expect.stringMatching(/^ok: 4 record\(s\)/m) });
  expect((await cli(['audit', '--processed', '-', '--topic', 'audited'], undefined, '["o-0","o-1","o-1","o-3"]')).code).toBe(1);
  expect(await cli(['audit', '--processed', good, '--id-from', 'value'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/--id-from takes key or header:NAME/) });
});

test('every verb has --help (exit 0)', async () => {
  const verbs = [['start'], ['status'], ['fault', 'add'], ['fault', 'list'], ['fault', 'rm'], ['fault', 'clear'], ['preset', 'list'], ['preset', 'show'], ['preset', 'apply'], ['topic', 'create'], ['topic', 'list'], ['topic', 'records'], ['node', 'stop'], ['node', 'start'], ['leader', 'move'], ['events'], ['reset'], ['audit']];
  const results = await Promise.all(verbs.map((v) => cli([...v, '--help'], {})));
  results.forEach((r, i) => expect([verbs[i]!.join(' '), r.code, r.stdout]).toEqual([verbs[i]!.join(' '), 0, expect.stringContaining(`kafkaesque ${verbs[i]!.join(' ')}`)]));
});

describe('start: flags checked by the options schema, named in the message; listeners bound before the ready line', () => {
  test('bad values exit 2 naming the flag and the value, before anything listens', async () => {
    // Before: --port abc started on free ports, --node-ids 1,1 started one broker, --brokers alone meant 3, --port 70000 failed at listen.
    const cases: [string[], string][] = [
      [['--port', 'abc'], 'kafkaesque: --port abc: must be a whole number from 0 to 65535\n'],
      [['--port', '70000'], 'kafkaesque: --port 70000: must be a whole number from 0 to 65535\n'],
      [['--port', '0', '--port', '70000'], 'kafkaesque: --port is given 2 times (0, 70000); give it once\n'],
      [['--node-ids', '1,1', '--brokers', '2'], 'kafkaesque: --node-ids 1,1: node ids must be distinct, got [1,1]\n'],
      [['--node-ids', '1', '--brokers', '2'], 'kafkaesque: --node-ids: has 1 id(s) for 2 broker(s): give one per broker\n'],
      [['--min-insync-replicas', '-1'], 'kafkaesque: --min-insync-replicas -1: must be a whole number from 1 to 64\n'],
      [['--max-request-size', '-5'], 'kafkaesque: --max-request-size -5: must be a whole number from 1 to 2147483647\n'],
      [['--brokers'], 'kafkaesque: Not enough arguments following: brokers\n'],
      [['--brokers', '100000'], 'kafkaesque: --brokers 100000: must be a whole number from 1 to 64\n'],
      [['--ports', '1,x'], 'kafkaesque: --ports 1,x: takes whole numbers from 0 to 65535 separated by commas, got x\n'],
      [['--port', '65535'], 'kafkaesque: --port: with 3 broker(s) on 65535, 65536, … the last port would be 65537, past 65535\n'],
      [['--host'], 'kafkaesque: Not enough arguments following: host\n'],
      [['--topic', 'orders:0'], 'kafkaesque: --topic orders:0: partitions must be a whole number >= 1\n'],
      [['--brokerz', '3'], 'kafkaesque: Unknown argument: brokerz\n'],
      [['--kafka-version', '2.7'], 'kafkaesque: --kafka-version 2.7: must be one of 2.8, 3.9, 4.0, 4.4 (or a patch release of one, such as 3.9.1)\n'],
      [['--kafka-version'], 'kafkaesque: Not enough arguments following: kafka-version\n'],
    ];
    const results = await Promise.all(cases.map(([args]) => cli(['start', ...args, '--log-level', 'silent'], {})));
    results.forEach((r, i) => expect([cases[i]![0].join(' '), r.code, r.stdout, r.stderr]).toEqual([cases[i]![0].join(' '), 2, '', `${cases[i]![1]}Run with --help for usage.\n`]));
  });

  test('--kafka-version picks the profile the ready line and status name', async () => {
    const child = spawn(process.execPath, ['dist/cli.js', 'start', '--brokers', '1', '--port', '0', '--json', '--log-level', 'silent', '--kafka-version', '2.8.2'], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      let out = '';
      const ready = await new Promise<{ controlUrl: string; kafkaVersion: string }>((resolve, reject) => {
        child.stdout.on('data', (c: Buffer) => (out += c).includes('\n') && resolve(JSON.parse(out)));
        child.on('exit', (code) => reject(new Error(`start exited ${code}`)));
      });
      expect(ready.kafkaVersion).toBe('2.8');
      const status = await cli(['status', '--url', ready.controlUrl], {});
      expect(status.stdout).toContain('; Kafka 2.8; chaos proxy on;');
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  test('--help shows the bounds', async () => {
    const help = await cli(['start', '--help'], {});
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/--brokers\s+Number of broker nodes \[1\.\.64\]/);
    expect(help.stdout).toMatch(/--port\s+Port of the first broker[^]*\[0\.\.65535\]/);
    expect(help.stdout).toMatch(/--node-ids[^]*\[each\s+0\.\.2147483647\]/);
    expect(help.stdout).toMatch(/--request-timeout-ms[^]*\[0\.\.2147483647\]/);
  });

  test('a control port in use: exit 1 naming the flag and the port, no ready line, nothing left listening', async () => {
    const { createServer } = await import('node:net');
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      // --log-level info: the "ready" log line would be on stderr.
      const r = await cli(['start', '--brokers', '1', '--port', '0', '--control-port', String(port), '--json', '--log-level', 'info'], {});
      expect(r).toMatchObject({ code: 1, stdout: '' });
      expect(r.stderr).toContain(`kafkaesque: --control-port: control API cannot listen on 127.0.0.1:${port}: EADDRINUSE\n`);
      expect(r.stderr).not.toMatch(/ready/);
      const broker = await cli(['start', '--brokers', '1', '--port', String(port), '--log-level', 'silent'], {});
      expect(broker).toMatchObject({ code: 1, stderr: `kafkaesque: --port: proxy for node 0 cannot listen on 127.0.0.1:${port}: EADDRINUSE\n` });
    } finally {
      taken.close();
    }
  });
});
