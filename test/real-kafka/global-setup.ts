// Starts the one real Kafka broker of `npm run test:real-kafka`: Kafka's jars
// from Maven Central (cached in .cache/real-kafka/), one KRaft node with a
// PLAINTEXT listener and a SASL_PLAINTEXT one (PLAIN and SCRAM-SHA-256),
// bounded in heap and in life. Its addresses go to the tests in
// KAFKAESQUE_REAL_KAFKA (JSON: { bootstrap, saslBootstrap, version, user }).
// When that is already set, its broker is used and none is started (a broker
// kept running between runs while one works on these tests).
import getPort, { portNumbers } from 'get-port';
// @ts-expect-error: a plain ES module of the repo's scripts, with no types.
import { REAL_KAFKA_SASL_USER, startRealKafka } from '../../scripts/real-kafka.mjs';

export interface RealKafkaInfo {
  bootstrap: string;
  saslBootstrap: string;
  version: string;
  user: { username: string; password: string };
}

declare global {
  // eslint-disable-next-line no-var
  var __kafkaesqueRealKafka: { stop(): Promise<unknown> } | undefined;
}

export default async function globalSetup(): Promise<void> {
  if (process.env.KAFKAESQUE_REAL_KAFKA) return;
  // The controller listens on port + 1: take a port whose next one is free too.
  let port = 0;
  for (let tries = 0; tries < 20 && port === 0; tries++) {
    const p = await getPort({ port: portNumbers(29100, 29900) });
    if ((await getPort({ port: p + 1 })) === p + 1) port = p;
  }
  const saslPort = await getPort({ port: portNumbers(29900, 29999) });
  const version = process.env.KAFKAESQUE_REAL_KAFKA_VERSION ?? '4.1.1';
  const started = Date.now();
  const kafka = await startRealKafka({ version, port, saslPort, heapMb: 768, lifetimeS: 1800 });
  process.stderr.write(`\nreal Kafka ${version} on ${kafka.bootstrap} (SASL ${kafka.saslBootstrap}), ready in ${Date.now() - started} ms\n`);
  globalThis.__kafkaesqueRealKafka = kafka;
  const info: RealKafkaInfo = { bootstrap: kafka.bootstrap, saslBootstrap: kafka.saslBootstrap, version, user: REAL_KAFKA_SASL_USER };
  process.env.KAFKAESQUE_REAL_KAFKA = JSON.stringify(info);
}
