// Presets: every file in presets/ loads; a broken file is refused naming the
// file, the field and why; applying one adds its rules (all or none), in
// process and over HTTP. Each preset's story, played with kafkajs:
// stories.test.ts (producers), group-stories.test.ts (consumer groups) and
// share-stories.test.ts (share groups).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RuleValidationError, startCluster, type RunningCluster } from '../../src/index.js';
import { ControlClient, ControlError } from '../../src/control/client.js';
import { validateRule } from '../../src/presets/validate.js';
import { applyPreset, builtinPresetsDir, listPresetNames, listPresets, loadPresetFile, resolvePreset, UnknownPresetError } from '../../src/presets/index.js';

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
      expect.arrayContaining(['lost-ack', 'slow-broker', 'leader-flapping', 'broker-outage', 'zombie-producer', 'offset-commit-lost', 'transaction-timeout', 'rebalance-storm', 'redelivery']),
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

  test('rule ids come from the preset: broker-outage-1, -2, …; applied again, the numbers go on; a rule id of the preset is kept', () => {
    const preset = resolvePreset('broker-outage');
    const ids = preset.rules.map((_, i) => `broker-outage-${i + 1}`);
    expect(applyPreset(kafka.chaos, preset).map((r) => r.id)).toEqual(ids);
    const again = applyPreset(kafka.chaos, preset).map((r) => r.id);
    expect(again).toEqual(preset.rules.map((_, i) => `broker-outage-${preset.rules.length + i + 1}`));
    expect(applyPreset(kafka.chaos, resolvePreset('lost-ack')).map((r) => r.id)).toEqual(['lost-ack-1']);
    kafka.chaos.clearRules();
    const own = { ...good, name: 'own', rules: [{ ...good.rules[0], id: 'own-2' }, good.rules[0]] };
    expect(applyPreset(kafka.chaos, loadPresetFile(presetFile('own', own))).map((r) => r.id)).toEqual(['own-2', 'own-1']);
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
      { match: { api: 'Heartbeat' }, action: { type: 'rebalance', evictSender: true } },
      { action: { type: 'rebalance', memberId: 'a', evictSender: true } },
      { action: { type: 'rewind', by: 2 } },
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

  test('over HTTP: parameters in the body aim the rules; a bad one is 400 naming the parameter', async () => {
    kafka.chaos.clearRules();
    const applied = await control.applyPreset('redelivery', undefined, { group: { regex: '^app-' } });
    expect(applied.rules.map((r) => r.match)).toEqual([
      { api: 'OffsetCommit', groupId: { regex: '^app-' } },
    ]);
    await expect(control.applyPreset('redelivery', undefined, { topic: 'x' })).rejects.toMatchObject({ status: 400, field: 'params.topic' });
    await expect(control.applyPreset('redelivery', undefined, { group: { regex: '[' } })).rejects.toMatchObject({ status: 400, field: 'params.group.regex' });
    expect(await control.faults()).toHaveLength(1);
    kafka.chaos.clearRules();
  });
});

test('every built-in preset has its story played in stories.test.ts, group-stories.test.ts or share-stories.test.ts', () => {
  const played = ['stories.test.ts', 'group-stories.test.ts', 'share-stories.test.ts']
    .map((f) => readFileSync(new URL(f, import.meta.url), 'utf8'))
    .flatMap((text) => [...text.matchAll(/resolvePreset\((?:'|`|\{ name: ')([a-z0-9-]+)[?'`]/g)].map((m) => m[1]!));
  expect([...new Set(played)].sort()).toEqual(listPresetNames());
});

describe('parameters', () => {
  test('a preset declares its parameters, and its rules take the values given (exact or { regex }), by object or by one string', () => {
    const plain = resolvePreset('lost-ack');
    expect(Object.keys(plain.params!)).toEqual(['topic', 'clientId']);
    expect(resolvePreset({ name: 'lost-ack', params: { topic: 'orders' } }).args).toEqual({ topic: 'orders' });
    expect(resolvePreset('lost-ack?topic=orders&clientId=/^app-/').args).toEqual({ topic: 'orders', clientId: { regex: '^app-' } });
  });

  test('bad values are refused naming the preset, the parameter and why', () => {
    expect(() => resolvePreset('lost-ack?group=app')).toThrow("preset lost-ack: params.group: is not a parameter of lost-ack (it takes: topic, clientId)");
    expect(() => resolvePreset('lost-ack?topic=/(/')).toThrow(/^preset lost-ack: params.topic.regex: is not a valid regular expression/);
    expect(() => resolvePreset({ name: 'lost-ack', params: { topic: 3 } as never })).toThrow('preset lost-ack: params.topic: must be a string or { regex }, got 3');
  });

  test('a preset file must declare what its rules name, and name what it declares', () => {
    const rule = { match: { api: 'Produce', topic: { param: 'topic' } }, action: { type: 'close' } };
    expect(() => loadPresetFile(presetFile('undeclared', { name: 'undeclared', description: 'closes the connection', rules: [rule], expect: 'the client reconnects' }))).toThrow(
      /rules\[0\]\.match\.topic\.param: names no declared parameter \('topic'\)/,
    );
    expect(() =>
      loadPresetFile(presetFile('unused', { name: 'unused', description: 'closes the connection', params: { group: { description: 'g' } }, rules: [{ action: { type: 'close' } }], expect: 'the client reconnects' })),
    ).toThrow(/params\.group: is named by no rule/);
  });
});
