// Presets: every file in presets/ loads; a broken file is refused naming the
// file, the field and why; applying one adds its rules (all or none), in
// process and over HTTP; and two stories play out with kafkajs as their
// `expect` says.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RuleValidationError, startCluster, type RunningCluster } from '../../src/index.js';
import { ControlClient, ControlError } from '../../src/control/client.js';
import { validateRule } from '../../src/presets/validate.js';
import { applyPreset, builtinPresetsDir, listPresetNames, listPresets, loadPresetFile, resolvePreset, UnknownPresetError } from '../../src/presets/index.js';
import { fetchPartition, kafkajs, messages } from '../support/kafkajs.js';

const dir = mkdtempSync(join(tmpdir(), 'kafkaesque-presets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
function presetFile(name: string, content: unknown): string {
  const file = join(dir, `${name}.json`);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}
const good = { name: 'mine', description: 'd', rules: [{ match: { api: 'Fetch' }, action: { type: 'close' } }], expect: 'e' };

function refusal(fn: () => unknown): RuleValidationError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(RuleValidationError);
    return err as RuleValidationError;
  }
  throw new Error('not refused');
}

describe('loading', () => {
  test('every built-in preset loads, is named after its file, and tells a story with an expectation', () => {
    const presets = listPresets();
    expect(presets.map((p) => p.name)).toEqual(listPresetNames());
    expect(presets.map((p) => p.name)).toEqual(
      expect.arrayContaining(['lost-ack', 'slow-broker', 'leader-flapping', 'broker-outage', 'zombie-producer', 'offset-commit-lost']),
    );
    for (const p of presets) {
      expect(p.file).toBe(join(builtinPresetsDir(), `${p.name}.json`));
      expect(p.rules.length).toBeGreaterThan(0);
      expect(p.description.length).toBeGreaterThan(20);
      expect(p.expect.length).toBeGreaterThan(20);
    }
  });

  test('a broken file is refused with the file, the field and the reason', () => {
    const cases: [unknown, string, RegExp][] = [
      ['{"name":', 'file', /is not JSON/],
      [{ ...good, rules: [{ action: { type: 'delay', ms: -5 } }] }, 'rules[0].action.ms', /at least 0/],
      [{ ...good, rules: [good.rules[0], { action: { type: 'teleport' } }] }, 'rules[1].action.type', /must be one of/],
      [{ ...good, rules: [{ match: { api: 'Produse' }, action: { type: 'close' } }] }, 'rules[0].match.api', /unknown API/],
      [{ ...good, rules: [{ trigger: { type: 'nth' }, action: { type: 'close' } }] }, 'rules[0].trigger.n', /whole number/],
      [{ ...good, rules: [{ action: { type: 'close' }, actoin: 1 }] }, 'rules[0].actoin', /unknown field/],
      [{ ...good, rules: [] }, 'rules', /non-empty list/],
      [{ ...good, expect: undefined }, 'expect', /non-empty string/],
      [{ ...good, extra: true }, 'preset.extra', /unknown field/],
      [{ ...good, name: 'Bad Name' }, 'name', /lower-case/],
    ];
    cases.forEach(([content, field, reason], i) => {
      const file = presetFile(`broken-${i}`, content);
      const err = refusal(() => loadPresetFile(file));
      expect({ file: err.file, field: err.field }).toEqual({ file, field });
      expect(err.reason).toMatch(reason);
      expect(err.message).toContain(`${file}: ${field}: `);
    });
    expect(refusal(() => loadPresetFile(join(dir, 'absent.json')))).toMatchObject({ field: 'file', reason: expect.stringMatching(/ENOENT/) });
  });

  test('a name resolves to a built-in preset, a path to a file; an unknown name lists the known ones', () => {
    expect(resolvePreset('lost-ack').name).toBe('lost-ack');
    expect(resolvePreset(presetFile('mine', good))).toMatchObject({ name: 'mine', rules: good.rules });
    expect(() => resolvePreset('no-such-story')).toThrow(UnknownPresetError);
    expect(() => resolvePreset('no-such-story')).toThrow(/lost-ack/);
  });
});

describe('applying', () => {
  let kafka: RunningCluster;
  let control: ControlClient;
  beforeAll(async () => {
    kafka = await startCluster({ brokers: 2, seed: 6 });
    control = new ControlClient(kafka.controlUrl);
  });
  afterEach(() => kafka.chaos.clearRules());
  afterAll(() => kafka.stop());

  test('applyPreset adds every rule, described by the preset', () => {
    const preset = resolvePreset('broker-outage');
    const added = applyPreset(kafka.chaos, preset);
    expect(added.map((r) => r.action)).toEqual(preset.rules.map((r) => r.action));
    expect(kafka.chaos.rules().map((r) => r.id)).toEqual(added.map((r) => r.id));
    expect(added[0]!.description).toMatch(/^broker-outage: /);
  });

  test('all or nothing: a node the cluster lacks refuses the preset, naming the file and rules[i]', () => {
    const file = presetFile('outage-7', { ...good, name: 'outage-7', rules: [good.rules[0], { action: { type: 'stop-node', nodeId: 7 } }] });
    const err = refusal(() => applyPreset(kafka.chaos, loadPresetFile(file)));
    expect(err).toMatchObject({ file, field: 'rules[1].action.nodeId', reason: expect.stringMatching(/no node 7/) });
    expect(kafka.chaos.rules()).toEqual([]);
  });

  test('preset rules are refused exactly as addRule (POST /v1/faults) refuses them', () => {
    const rules: unknown[] = [
      { action: { type: 'close' } },
      { id: 'x', description: 'ok', match: { api: ['Produce', 'Fetch'], topic: 't', partition: 0 }, trigger: { type: 'first', n: 2, times: 1 }, action: { type: 'delay', ms: 5 } },
      { action: { type: 'close' }, extra: 1 },
      { id: '', action: { type: 'close' } },
      { description: 5, action: { type: 'close' } },
      { match: { versions: { min: 'a' } }, action: { type: 'close' } },
      { trigger: { type: 'probability', p: 2 }, action: { type: 'close' } },
      { action: { type: 'error', code: 'NOPE' } },
      { action: { type: 'drop-response', then: 'later' } },
      { match: { nodeId: 1 }, action: { type: 'stop-node', nodeId: 0 } },
      {},
      [],
    ];
    const outcome = (fn: () => unknown) => {
      try {
        fn();
        return 'ok';
      } catch (err) {
        return `${(err as RuleValidationError).field}: ${(err as RuleValidationError).reason}`;
      }
    };
    for (const rule of rules) {
      const viaApi = outcome(() => kafka.chaos.addRule(rule as never));
      expect([rule, outcome(() => validateRule(rule, [0, 1]))]).toEqual([rule, viaApi]);
      kafka.chaos.clearRules();
    }
  });

  test('over HTTP: a built-in preset by name, a preset of your own in the body, refusals as 400', async () => {
    expect((await control.presets()).find((p) => p.name === 'lost-ack')).toEqual({ name: 'lost-ack', description: expect.any(String), rules: 1 });
    const applied = await control.applyPreset('lost-ack');
    expect(applied.rules).toHaveLength(1);
    expect(await control.faults()).toEqual([expect.objectContaining({ id: applied.rules[0]!.id, action: { type: 'drop-response', then: 'close' } })]);

    const mine = loadPresetFile(presetFile('mine', good));
    expect((await control.applyPreset('mine', mine)).rules[0]).toMatchObject({ match: { api: 'Fetch' }, action: { type: 'close' } });
    await expect(control.applyPreset('other', mine)).rejects.toMatchObject({ status: 400, field: 'preset.name' });
    const bad = { ...good, rules: [{ action: { type: 'delay' } }] } as never;
    await expect(control.applyPreset('mine', bad)).rejects.toMatchObject({ status: 400, error: 'invalid_rule', field: 'rules[0].action.ms' });
    await expect(control.applyPreset('nope')).rejects.toBeInstanceOf(ControlError);
    expect(await control.faults()).toHaveLength(2);
  });
});

describe('stories with kafkajs', () => {
  let kafka: RunningCluster;
  beforeAll(async () => {
    kafka = await startCluster({ brokers: 3, seed: 7 });
  });
  afterEach(() => kafka.chaos.clearRules());
  afterAll(() => kafka.stop());

  async function producerFor(topic: string) {
    const client = kafkajs(kafka.bootstrap);
    const admin = client.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic, numPartitions: 1, replicationFactor: 3 }] });
    await admin.disconnect();
    const producer = client.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    return { client, producer };
  }

  test('lost-ack: the idempotent producer retries and each record is in the log once', async () => {
    const { client, producer } = await producerFor('story-lost-ack');
    try {
      const [rule] = applyPreset(kafka.chaos, resolvePreset('lost-ack'));
      const acks = await producer.send({ topic: 'story-lost-ack', acks: -1, messages: messages(3, 'v') });
      expect(kafka.chaos.rule(rule!.id)).toMatchObject({ fired: 1 });
      expect(acks[0]).toMatchObject({ baseOffset: '0' });
      expect((await fetchPartition(client, 'story-lost-ack', 0)).map((m) => m.value)).toEqual(['v0', 'v1', 'v2']);
    } finally {
      await producer.disconnect();
    }
  });

  test('out-of-order-sequence: the refused batch fails alone, the log keeps order without gaps, and a resend lands once', async () => {
    const topic = 'story-oos';
    const { client, producer } = await producerFor(topic);
    try {
      const [rule] = applyPreset(kafka.chaos, resolvePreset('out-of-order-sequence'));
      const batches = [0, 1, 2, 3, 4].map((b) => messages(2, `b${b}-`));
      const results = await Promise.allSettled(batches.map((m) => producer.send({ topic, acks: -1, messages: m })));
      expect(kafka.chaos.rule(rule!.id)).toMatchObject({ fired: 1 });
      const failed = results.flatMap((r, i) => (r.status === 'rejected' ? [i] : []));
      expect(failed).toHaveLength(1);
      await producer.send({ topic, acks: -1, messages: batches[failed[0]!]! });
      const values = (await fetchPartition(client, topic, 0)).map((m) => m.value);
      expect(values).toHaveLength(10);
      expect([...values].sort()).toEqual(batches.flat().map((m) => m.value).sort());
      for (const b of batches) expect(values.indexOf(b[1]!.value as string)).toBe(values.indexOf(b[0]!.value as string) + 1);
    } finally {
      await producer.disconnect();
    }
  });

  test('zombie-producer: the fenced commit fails, and read_committed consumers never see its records', async () => {
    const topic = 'story-zombie';
    const client = kafkajs(kafka.bootstrap);
    const admin = client.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic, numPartitions: 1, replicationFactor: 3 }] });
    await admin.disconnect();
    const producer = client.producer({ transactionalId: 'story-zombie-tx', idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    try {
      const [rule] = applyPreset(kafka.chaos, resolvePreset('zombie-producer'));
      const txn = await producer.transaction();
      await txn.send({ topic, acks: -1, messages: messages(2, 'z') });
      await expect(txn.commit()).rejects.toThrow();
      expect(kafka.chaos.rule(rule!.id)).toMatchObject({ fired: 1 });
      expect(await fetchPartition(client, topic, 0, 0, 1)).toEqual([]);
    } finally {
      await producer.disconnect();
    }
  });
});
