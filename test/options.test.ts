// The one options schema (src/options-schema.ts): startCluster, startProxy
// and the jest fixture refuse unknown keys, wrong types and values out of
// bounds, naming where the options came from, the key and the value.
// Regression for issue 20 (#1, #4) and issue 13 ("typos pass silently").
import { OptionsError, defaultOptions, optionSchemas, startCluster, type KafkaesqueOptions } from '../src/index.js';
import { resolveOptions } from '../src/options.js';
import { MAX_BROKERS, closest, optionBounds } from '../src/options-schema.js';
import { startProxy } from '../src/start-proxy.js';

function refusal(fn: () => unknown): OptionsError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(OptionsError);
    return err as OptionsError;
  }
  throw new Error('not refused');
}
const refused = (input: unknown) => refusal(() => resolveOptions(input as Partial<KafkaesqueOptions>));

test('an unknown key is refused, naming it and the option it is likely a typo of', async () => {
  // Before: { controlTokn: 'secret' } started a cluster with no token at all.
  await expect(startCluster({ controlTokn: 'secret' } as never)).rejects.toThrow('startCluster: controlTokn: unknown option; did you mean controlToken?');
  expect(refused({ controlTokn: 'secret' })).toMatchObject({ source: 'startCluster', key: 'controlTokn', value: 'secret' });
  expect(refused({ brokerz: 3 }).message).toBe('startCluster: brokerz: unknown option; did you mean brokers?');
  expect(refused({ topic: [] }).message).toBe('startCluster: topic: unknown option; did you mean topics?');
  expect(refused({ frobnicate: 1 }).message).toMatch(/^startCluster: frobnicate: unknown option \(known: brokers, nodeIds, /);
});

test('a wrong type is refused, naming the key and the value', () => {
  expect(refused({ proxy: 'no' })).toMatchObject({ key: 'proxy', value: 'no', message: 'startCluster: proxy: must be true or false, got "no"' });
  expect(refused({ brokers: '3' }).message).toBe('startCluster: brokers: must be a whole number from 1 to 64, got "3"');
  expect(refused({ brokers: null }).message).toBe('startCluster: brokers: must be a whole number from 1 to 64, got null');
  expect(refused({ presets: 'lost-ack' }).message).toBe('startCluster: presets: must be an array of presets, got "lost-ack"');
  expect(refused({ logLevel: 'verbose' }).message).toMatch(/^startCluster: logLevel: must be one of trace, debug, info, warn, error, fatal, silent, got "verbose"/);
  expect(refused({ logger: {} }).key).toBe('logger');
  expect(refused({ clock: { now: 1 } }).key).toBe('clock');
  expect(refused(5).message).toBe('startCluster: must be an object of options, got 5');
});

test('topics are strict objects: a typo names topics[i].<field>, not a TypeError', async () => {
  // Before: TypeError: Cannot read properties of undefined (reading 'length').
  await expect(startCluster({ topics: [{ nam: 'x' }] } as never)).rejects.toThrow('startCluster: topics[0].name: required (given instead: nam)');
  expect(refused({ topics: [{ name: 'a', nam: 'x' }] })).toMatchObject({ key: 'topics[0].nam', value: 'x', message: 'startCluster: topics[0].nam: unknown field; did you mean name?' });
  expect(refused({ topics: [{ name: 'a' }, { name: 'b', partitions: 0 }] }).message).toBe('startCluster: topics[1].partitions: must be a whole number from 1 to 10000, got 0');
  expect(refused({ topics: [{ name: 'a', configs: { 'retention.ms': 5 } }] }).key).toBe('topics[0].configs.retention.ms');
  expect(refused({ topics: [{ name: '' }] }).message).toBe('startCluster: topics[0].name: must not be empty');
});

test('counts, ports and times are bounded', () => {
  expect(refused({ brokers: 100_000 }).message).toBe(`startCluster: brokers: must be a whole number from 1 to ${MAX_BROKERS}, got 100000`);
  expect(refused({ brokers: 0 }).key).toBe('brokers');
  expect(refused({ port: 70_000 }).message).toBe('startCluster: port: must be a whole number from 0 to 65535, got 70000');
  expect(refused({ controlPort: -1 }).key).toBe('controlPort');
  expect(refused({ ports: [1, 70_000, 3] }).key).toBe('ports[1]');
  expect(refused({ requestTimeoutMs: 2 ** 31 }).key).toBe('requestTimeoutMs');
  expect(refused({ minInsyncReplicas: -1 }).key).toBe('minInsyncReplicas');
  expect(refused({ maxRequestSize: -5 }).key).toBe('maxRequestSize');
  expect(refused({ seed: 2 ** 32 }).key).toBe('seed');
  expect(refused({ controlToken: '  ' }).message).toBe('startCluster: controlToken: must not be empty');
  expect(refused({ sasl: { users: { alice: 1 } } }).key).toBe('sasl.users.alice');
  expect(refused({ sasl: { mechanism: ['PLAIN'] } }).message).toBe('startCluster: sasl.mechanism: unknown field; did you mean mechanisms?');
  expect(refused({ tls: { crt: 'x' } }).message).toBe('startCluster: tls.crt: unknown field; did you mean cert?');
  expect(refused({ tls: 'yes' }).key).toBe('tls');
});

test('what options say together: node ids distinct and one per broker, ports that fit', () => {
  expect(refused({ brokers: 2, nodeIds: [1, 1] }).message).toBe('startCluster: nodeIds: node ids must be distinct, got [1,1]');
  expect(refused({ brokers: 2, nodeIds: [1] }).message).toBe('startCluster: nodeIds: has 1 id(s) for 2 broker(s): give one per broker');
  expect(refused({ brokers: 2, ports: [9092] }).key).toBe('ports');
  expect(refused({ brokers: 2, ports: [9092, 9092] }).message).toBe('startCluster: ports: port 9092 is given twice (0 = a free port may repeat)');
  expect(refused({ brokers: 3, port: 65535 }).message).toMatch(/^startCluster: port: with 3 broker\(s\) on 65535, .* the last port would be 65537, past 65535$/);
  expect(resolveOptions({ brokers: 2, ports: [0, 0], nodeIds: [5, 7] })).toMatchObject({ brokers: 2, ports: [0, 0], nodeIds: [5, 7] });
});

test('undefined means the default; the defaults themselves pass the schema', () => {
  expect(resolveOptions({ brokers: undefined, port: undefined })).toMatchObject({ brokers: defaultOptions.brokers, port: defaultOptions.port });
  const { logLevel: _level, ...rest } = defaultOptions;
  expect(() => resolveOptions({ ...rest })).not.toThrow();
});

test('startProxy checks the same schema, naming itself', async () => {
  await expect(startProxy({ upstream: '127.0.0.1:9', brokerz: 1 } as never)).rejects.toThrow('startProxy: brokerz: unknown option; did you mean brokers?');
  await expect(startProxy({ upstream: '127.0.0.1:9', proxy: 'no' } as never)).rejects.toThrow('startProxy: proxy: must be true or false, got "no"');
  await expect(startProxy({} as never)).rejects.toThrow(/^startProxy: upstream: required/);
});

test('one table: every option has a schema, and the number options have bounds for --help', () => {
  const keys: (keyof KafkaesqueOptions)[] = ['brokers', 'port', 'controlPort', 'seed', 'maxRequestSize', 'nodeIds', 'ports'];
  for (const k of keys) expect([k, optionBounds(k)]).toEqual([k, expect.any(Array)]);
  expect(optionBounds('host')).toBeUndefined();
  expect(Object.keys(optionSchemas)).toEqual(expect.arrayContaining(Object.keys(defaultOptions)));
  expect(closest('controltoken', Object.keys(optionSchemas))).toBe('controlToken');
  expect(closest('zzz', Object.keys(optionSchemas))).toBeUndefined();
});
