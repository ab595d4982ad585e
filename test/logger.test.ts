// Logs for people: one line per event, colour only on a terminal (or when
// forced), JSON unless asked, and the library silent unless asked.
import { execFile } from 'node:child_process';
import { colourWanted, prettyByDefault } from '../src/logger.js';
import { formatLogLine } from '../src/logger-lines.js';

const ESC = '\u001b[';

test('a rule added is one line: time, level, component, message, then what the rule matches, when and does', () => {
  const json = JSON.stringify({
    level: 30,
    time: Date.UTC(2026, 0, 2, 3, 4, 5, 678),
    component: 'chaos',
    rule: { id: 'rule-1', match: { api: 'Produce', topic: 'orders' }, trigger: { type: 'nth', n: 1 }, action: { type: 'drop-response' }, createdAt: 1, matched: 0, fired: 0 },
    msg: 'chaos: rule rule-1 added',
  });
  expect(formatLogLine(json)).toBe('03:04:05.678Z INFO  chaos chaos: rule rule-1 added  match={"api":"Produce","topic":"orders"}  trigger={"type":"nth","n":1}  action={"type":"drop-response"}');
});

test('an event keeps its seq and detail; an error its message; strings with spaces are quoted', () => {
  const event = { seq: 7, time: 1, kind: 'leader-changed', topic: 'orders', partition: 0, detail: { leader: 2, leaderEpoch: 3 } };
  expect(formatLogLine(JSON.stringify({ level: 30, time: 0, component: 'chaos', event, msg: 'leader of orders-0 is now node 2 (epoch 3)' }))).toBe(
    '00:00:00.000Z INFO  chaos leader of orders-0 is now node 2 (epoch 3)  seq=7  detail={"leader":2,"leaderEpoch":3}',
  );
  const err = { type: 'Error', message: 'boom', stack: 'Error: boom\n    at x' };
  expect(formatLogLine(JSON.stringify({ level: 50, time: 0, node: 1, err, reason: 'bad frame', msg: 'handler failed' }))).toBe('00:00:00.000Z ERROR handler failed  node=1  err="boom"  reason="bad frame"');
  expect(formatLogLine('not json\n')).toBe('not json');
});

test('colour paints the level, and nothing else changes', () => {
  const line = formatLogLine(JSON.stringify({ level: 40, time: 0, msg: 'careful' }), true);
  expect(line).toContain(`${ESC}33mWARN `);
  expect(line.replace(/\u001b\[[0-9;]*m/g, '')).toBe('00:00:00.000Z WARN  careful');
});

test('pretty by default on a terminal; KAFKAESQUE_PRETTY=1 or 0 decides either way', () => {
  expect(prettyByDefault({}, true)).toBe(true);
  expect(prettyByDefault({}, false)).toBe(false);
  expect(prettyByDefault({ KAFKAESQUE_PRETTY: '1' }, false)).toBe(true);
  expect(prettyByDefault({ KAFKAESQUE_PRETTY: '0' }, true)).toBe(false);
});

test('colour on a terminal unless NO_COLOR; FORCE_COLOR forces it on or off', () => {
  expect(colourWanted({}, true)).toBe(true);
  expect(colourWanted({}, false)).toBe(false);
  expect(colourWanted({ NO_COLOR: '1' }, true)).toBe(false);
  expect(colourWanted({ FORCE_COLOR: '1' }, false)).toBe(true);
  expect(colourWanted({ FORCE_COLOR: '0' }, true)).toBe(false);
});

/** A cluster started and stopped by the library in a fresh process, as a test run does; what it printed on stderr. */
function libraryRun(env: Record<string, string>): Promise<string> {
  const script = "const { startCluster } = await import('./dist/index.js'); const k = await startCluster({ brokers: 1 }); await k.stopNode(0); await k.stop();";
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--input-type=module', '-e', script], { env: { PATH: process.env.PATH, ...env }, timeout: 20_000 }, (err, _stdout, stderr) => (err ? reject(err) : resolve(stderr)));
  });
}

test('the library is quiet unless asked; asked, KAFKAESQUE_PRETTY=1 gives one line per event, the change once, and a shutdown line', async () => {
  expect(await libraryRun({})).toBe('');
  const lines = (await libraryRun({ KAFKAESQUE_LOG_LEVEL: 'info', KAFKAESQUE_PRETTY: '1' })).trimEnd().split('\n');
  for (const line of lines) expect(line).toMatch(/^\d\d:\d\d:\d\d\.\d{3}Z (INFO|WARN) /);
  expect(lines.filter((l) => /node 0 stopped/.test(l))).toHaveLength(1);
  expect(lines.at(-1)).toMatch(/INFO  kafkaesque stopped after \d+\.\d s: 1 broker\(s\), 0 topic\(s\), 0 fault\(s\) fired, 1 cluster change\(s\); seed \d+/);
});
