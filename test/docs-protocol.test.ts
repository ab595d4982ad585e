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

test('the Kafka versions table in docs/protocol.md matches each profile (and what that release itself advertises)', () => {
  const doc = readFileSync('docs/protocol.md', 'utf8');
  const block = doc.split('<!-- kafka-versions-table -->\n')[1]!.split('\n\n')[0]!;
  const [head, , ...rows] = block.trim().split('\n').map((line) => line.split('|').slice(1, -1).map((c) => c.trim()));
  const names = head!.slice(2, -1);
  expect(names).toEqual([...PROFILES.keys()]);
  const range = (a: { minVersion: number; maxVersion: number } | undefined) => (a ? `${a.minVersion}-${a.maxVersion}` : '—');
  const keys = brokerHandlers.map((h) => h.api.apiKey).sort((a, b) => a - b);
  const want = keys.map((apiKey) => ({ apiKey })).map((a) => {
    const itself = PROFILES.get('4.0')!.ranges.get(a.apiKey);
    return [
      apiSchemas.get(a.apiKey)!.name,
      String(a.apiKey),
      ...names.map((n) => range(new HandlerRegistry(brokerHandlers, PROFILES.get(n)!).versions().find((v) => v.apiKey === a.apiKey))),
      itself ? `${PROFILES.get('4.0')!.advertisedMin.get(a.apiKey) ?? itself.min}-${itself.max}` : '—',
    ];
  });
  expect(rows).toEqual(want);
});
