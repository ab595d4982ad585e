// Starts the one real Apache Kafka broker of a conformance run (jest
// globalSetup runs in the parent process, before any test file): KRaft, one
// node, Testcontainers' single-node settings (scripts/real-kafka.mjs), a
// bounded heap and lifetime. The suite reads where it is from the environment
// (the test files run in band, in this same process). The same broker serves
// test/real-kafka/ (upstream mode in front of it), through a second,
// SASL_PLAINTEXT listener and KAFKAESQUE_REAL_KAFKA.
import net from 'node:net';
import { performance } from 'node:perf_hooks';

import { REAL_KAFKA_SASL_USER, ensureKafkaJars, startRealKafka } from '../../scripts/real-kafka.mjs';

/** The Kafka release the suite compares against; its major.minor names kafkaesque's profile. */
export const CONFORMANCE_KAFKA_VERSION = process.env.KAFKAESQUE_CONFORMANCE_KAFKA ?? '4.0.2';
// The whole run must end well within this; the JVM is killed after it anyway.
const LIFETIME_S = 900;
const HEAP_MB = 512;

function portFree(port) {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A port p with p+1 free too (the controller's listener). */
async function freePortPair() {
  for (let i = 0; i < 50; i++) {
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    if ((await portFree(port)) && (await portFree(port + 1))) return port;
  }
  throw new Error('no free port pair for the real Kafka broker');
}

export default async function globalSetup() {
  const fetchStarted = performance.now();
  ensureKafkaJars({ version: CONFORMANCE_KAFKA_VERSION });
  const fetchMs = performance.now() - fetchStarted;
  const port = await freePortPair();
  let saslPort = 0;
  while (saslPort === 0 || saslPort === port || saslPort === port + 1) saslPort = (await freePortPair()) + 1;
  const kafka = await startRealKafka({
    version: CONFORMANCE_KAFKA_VERSION,
    port,
    saslPort,
    heapMb: HEAP_MB,
    lifetimeS: LIFETIME_S,
    // kafkaesque's __consumer_offsets has Kafka's default 50 partitions (not
    // configurable); the real broker gets the same, over Testcontainers' 1,
    // so that Metadata of every topic and a group's coordinator partition agree.
    properties: { 'offsets.topic.num.partitions': 50 },
  });
  globalThis.__conformanceRealKafka = kafka;
  process.env.KAFKAESQUE_CONFORMANCE_BOOTSTRAP = kafka.bootstrap;
  process.env.KAFKAESQUE_CONFORMANCE_VERSION = CONFORMANCE_KAFKA_VERSION;
  process.env.KAFKAESQUE_REAL_KAFKA = JSON.stringify({ bootstrap: kafka.bootstrap, saslBootstrap: kafka.saslBootstrap, version: CONFORMANCE_KAFKA_VERSION, user: REAL_KAFKA_SASL_USER });
  process.env.KAFKAESQUE_CONFORMANCE_TIMINGS = JSON.stringify({ fetchMs: Math.round(fetchMs), startMs: Math.round(kafka.readyMs) });
  process.stderr.write(`\nreal Kafka ${CONFORMANCE_KAFKA_VERSION} on ${kafka.bootstrap}: jars in ${Math.round(fetchMs)} ms, ready in ${Math.round(kafka.readyMs)} ms\n`);
}
