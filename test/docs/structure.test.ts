// What the docs must say, beyond their samples running (samples.test.ts):
// chaos.md has a section and an example for every action, control-api.md a
// heading for exactly the routes the server serves, and its curl examples
// call real routes with their methods. (docs/protocol.md's API table:
// test/docs-protocol.test.ts.)
import { readFileSync } from 'node:fs';
import { chaosActions } from '../../src/chaos/actions/index.js';
import { matchRoute, routes } from '../../src/control/routes.js';
import { docSamples } from './samples.js';

const repo = new URL('../..', import.meta.url).pathname;
const read = (doc: string) => readFileSync(new URL(`../../${doc}`, import.meta.url), 'utf8');

describe('docs/chaos.md', () => {
  const doc = read('docs/chaos.md');

  test('every registered action has a section', () => {
    const sections = [...doc.matchAll(/^### (.+)$/gm)].map((m) => m[1]!);
    for (const type of chaosActions.keys()) expect([type, sections.some((s) => s.split(/ and |, /).includes(type))]).toEqual([type, true]);
  });

  test('every action has at least one rule example (samples.test.ts checks each is accepted)', () => {
    const used = new Set(
      docSamples(repo, 'docs/chaos.md')
        .filter((s) => s.lang === 'json')
        .map((s) => (JSON.parse(s.code) as { action?: { type?: string } }).action?.type),
    );
    expect([...chaosActions.keys()].filter((t) => !used.has(t))).toEqual([]);
  });
});

describe('docs/control-api.md', () => {
  const doc = read('docs/control-api.md');

  test('one ### heading per route, and no heading for a route that does not exist', () => {
    const headings = [...doc.matchAll(/^### (GET|POST|DELETE) (\/\S+)$/gm)].map((m) => `${m[1]} ${m[2]}`);
    expect(headings.sort()).toEqual(Object.keys(routes).sort());
  });

  test('every curl example calls a route with its method', () => {
    const calls = [...doc.matchAll(/^curl -s (?:-X (POST|DELETE) )?"?\$KAFKAESQUE_URL(\/[^\s"?]*)/gm)].map((m) => [m[1] ?? 'GET', m[2]!] as const);
    expect(calls.length).toBeGreaterThanOrEqual(Object.keys(routes).length - 1);
    for (const [method, path] of calls) expect([method, path, matchRoute(method, path).route?.method]).toEqual([method, path, method]);
  });
});
