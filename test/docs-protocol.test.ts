// docs/protocol.md must list exactly what the broker serves.
import { readFileSync } from 'node:fs';
import { brokerHandlers } from '../src/broker/handlers/index.js';
import { HandlerRegistry } from '../src/broker/handlers/registry.js';

test('the API table in docs/protocol.md matches the handler registry', () => {
  const doc = readFileSync('docs/protocol.md', 'utf8');
  const rows = [...doc.matchAll(/^\| +(\d+) \| (\w+) \| (\d+)-(\d+) \|/gm)].map((m) => ({ apiKey: Number(m[1]), minVersion: Number(m[3]), maxVersion: Number(m[4]) }));
  expect(rows).toEqual(new HandlerRegistry(brokerHandlers).versions());
});
