// docs/protocol.md must list exactly what the broker serves.
import { readFileSync } from 'node:fs';
import { brokerHandlers } from '../src/broker/handlers/index.js';
import { HandlerRegistry } from '../src/broker/handlers/registry.js';
import { PROFILES } from '../src/broker/kafka-version/profiles.js';
import { apiSchemas } from '../src/protocol/messages/index.js';

test('the API table in docs/protocol.md matches the handler registry', () => {
  const doc = readFileSync('docs/protocol.md', 'utf8');
  const rows = [...doc.matchAll(/^\| +(\d+) \| (\w+) \| (\d+)-(\d+) \|/gm)].map((m) => ({ apiKey: Number(m[1]), minVersion: Number(m[3]), maxVersion: Number(m[4]) }));
  expect(rows).toEqual(new HandlerRegistry(brokerHandlers).versions());
});

test('the Kafka versions table in docs/protocol.md matches each profile (and what 4.0 and 4.4 themselves advertise)', () => {
  const doc = readFileSync('docs/protocol.md', 'utf8');
  const block = doc.split('<!-- kafka-versions-table -->\n')[1]!.split('\n\n')[0]!;
  const [head, , ...rows] = block.trim().split('\n').map((line) => line.split('|').slice(1, -1).map((c) => c.trim()));
  const itself = ['4.0', '4.4'];
  const names = head!.slice(2, -itself.length);
  expect(names).toEqual([...PROFILES.keys()]);
  expect(head!.slice(-itself.length)).toEqual(itself.map((n) => `${n} itself`));
  const range = (a: { minVersion: number; maxVersion: number } | undefined) => (a ? `${a.minVersion}-${a.maxVersion}` : '—');
  const keys = brokerHandlers.map((h) => h.api.apiKey).sort((a, b) => a - b);
  const want = keys.map((apiKey) => [
    apiSchemas.get(apiKey)!.name,
    String(apiKey),
    ...names.map((n) => range(new HandlerRegistry(brokerHandlers, PROFILES.get(n)!).versions().find((v) => v.apiKey === apiKey))),
    ...itself.map((n) => {
      const own = PROFILES.get(n)!.ranges.get(apiKey);
      return own ? `${PROFILES.get(n)!.advertisedMin.get(apiKey) ?? own.min}-${own.max}` : '—';
    }),
  ]);
  expect(rows).toEqual(want);
});
