// Stops the real broker global-setup.mjs started (SIGTERM, SIGKILL after 15 s).
export default async function globalTeardown() {
  const kafka = globalThis.__conformanceRealKafka;
  if (kafka) await kafka.stop();
}
