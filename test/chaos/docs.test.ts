// docs/chaos.md stays true: every action has its section, and every rule
// example in it is accepted as it stands.
import { readFileSync } from 'node:fs';
import { chaosActions } from '../../src/chaos/actions/index.js';
import { engine } from './helpers.js';

const doc = readFileSync(new URL('../../docs/chaos.md', import.meta.url), 'utf8');
const examples = [...doc.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1]!.trim());

test('every registered action has a section', () => {
  const sections = [...doc.matchAll(/^### (.+)$/gm)].map((m) => m[1]!);
  for (const type of chaosActions.keys()) expect(sections.some((s) => s.split(/ and |, /).includes(type))).toBe(true);
});

test('every action has at least one example, and every example is a valid rule', () => {
  expect(examples.length).toBeGreaterThanOrEqual(chaosActions.size);
  const used = new Set<string>();
  for (const text of examples) {
    const { chaos } = engine();
    const rule = chaos.addRule(JSON.parse(text));
    used.add(rule.action.type);
  }
  expect([...used].sort()).toEqual([...chaosActions.keys()].sort());
});
