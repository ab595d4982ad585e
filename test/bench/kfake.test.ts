// bench/kfake (franz-go's kfake as a process) as bench/ uses it: built by
// bench/lib/kfake.mjs (Go and the Go module proxy, pinned by go.sum; a
// cache hit when the binary exists), its JSON ready line, kafkajs produce and
// fetch against it, and its exits: SIGTERM, stdin closed with -stdin.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import kafkajs from 'kafkajs';

const { Kafka, logLevel } = kafkajs;

function kfakeBinary(): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['bench/lib/kfake.mjs'], { timeout: 280_000 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`bench/lib/kfake.mjs failed: ${err.message}\n${stderr}`));
      else resolve(stdout.trim());
    });
  });
}

function readyLine(child: ChildProcess): Promise<{ bootstrap: string; brokers: number; kfake: string }> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no ready line within 10 s')), 10_000);
    child.once('exit', (code) => reject(new Error(`kfake exited (${code}) before its ready line`)));
    createInterface({ input: child.stdout! }).once('line', (line) => {
      clearTimeout(timer);
      resolve(JSON.parse(line));
    });
  });
}

const exitOf = (child: ChildProcess) => new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

let bin: string;
beforeAll(async () => {
  bin = await kfakeBinary();
}, 300_000);

test('two brokers with a seeded topic: the ready line lists both, kafkajs reads back what it produced, SIGTERM ends it with 0', async () => {
  const child = spawn(bin, ['-brokers', '2', '-lifetime', '30', '-t', 'orders:3:1'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = exitOf(child);
  try {
    const ready = await readyLine(child);
    expect(ready.brokers).toBe(2);
    expect(ready.bootstrap.split(',')).toHaveLength(2);
    expect(ready.kfake).toMatch(/^v0\.0\.0-\d{14}-[0-9a-f]{12}$/);

    const kafka = new Kafka({ brokers: ready.bootstrap.split(','), logLevel: logLevel.NOTHING });
    const admin = kafka.admin();
    await admin.connect();
    const [meta] = (await admin.fetchTopicMetadata({ topics: ['orders'] })).topics;
    await admin.disconnect();
    expect(meta.partitions).toHaveLength(3);

    const producer = kafka.producer();
    await producer.connect();
    await producer.send({ topic: 'orders', messages: [{ key: 'o-1', value: 'ten', partition: 2 }] });
    await producer.disconnect();
    const consumer = kafka.consumer({ groupId: 'kfake-test', maxWaitTimeInMs: 100 });
    await consumer.connect();
    await consumer.subscribe({ topic: 'orders', fromBeginning: true });
    const got = await new Promise<string>((resolve) => {
      void consumer.run({ eachMessage: async ({ partition, message }) => resolve(`${partition}:${message.key}=${message.value}`) });
    });
    await consumer.disconnect();
    expect(got).toBe('2:o-1=ten');
  } finally {
    child.kill('SIGTERM');
  }
  expect(await exited).toBe(0);
}, 30_000);

test('-stdin: it exits when its stdin closes', async () => {
  const child = spawn(bin, ['-stdin', '-lifetime', '30'], { stdio: ['pipe', 'pipe', 'pipe'] });
  const exited = exitOf(child);
  await readyLine(child);
  child.stdin!.end();
  expect(await exited).toBe(0);
}, 20_000);

test('bad flags are refused with exit code 2 and no ready line', async () => {
  const child = spawn(bin, ['-brokers', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  expect(await exitOf(child)).toBe(2);
  expect(out).toBe('');
}, 10_000);
