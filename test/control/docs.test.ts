// docs/control-api.md must document exactly the routes the server serves, and
// its curl examples must name real routes.
import { readFileSync } from 'node:fs';
import { matchRoute, routes } from '../../src/control/routes.js';

const doc = readFileSync('docs/control-api.md', 'utf8');

test('one ### heading per route, and no heading for a route that does not exist', () => {
  const headings = [...doc.matchAll(/^### (GET|POST|DELETE) (\/\S+)$/gm)].map((m) => `${m[1]} ${m[2]}`);
  expect(headings.sort()).toEqual(Object.keys(routes).sort());
});

test('every curl example calls a route with its method', () => {
  const calls = [...doc.matchAll(/^curl -s (?:-X (POST|DELETE) )?"?\$KAFKAESQUE_URL(\/[^\s"?]*)/gm)].map((m) => [m[1] ?? 'GET', m[2]!] as const);
  expect(calls.length).toBeGreaterThanOrEqual(Object.keys(routes).length - 1);
  for (const [method, path] of calls) expect([method, path, matchRoute(method, path).route?.method]).toEqual([method, path, method]);
});
