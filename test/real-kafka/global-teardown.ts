// Stops the real Kafka broker global-setup.ts started.
export default async function globalTeardown(): Promise<void> {
  await globalThis.__kafkaesqueRealKafka?.stop();
}
