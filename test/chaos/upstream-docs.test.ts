// docs/upstream.md stays true: the actions it says are refused upstream are
// exactly those that declare needsCluster, and the wire actions it lists are
// all the others; docs/chaos.md names the same refused set.
import { readFileSync } from 'node:fs';
import { chaosActions } from '../../src/chaos/actions/index.js';
import { ChaosEngine, NEEDS_CLUSTER } from '../../src/chaos/controller.js';
import { createLogger } from '../../src/logger.js';

const upstreamDoc = readFileSync('docs/upstream.md', 'utf8');
const chaosDoc = readFileSync('docs/chaos.md', 'utf8');
const needsCluster = [...chaosActions.values()].filter((a) => a.needsCluster).map((a) => a.type).sort();
const wire = [...chaosActions.values()].filter((a) => !a.needsCluster).map((a) => a.type).sort();

test('the refused-actions table of docs/upstream.md is the set of actions that need the cluster model', () => {
  const section = upstreamDoc.slice(upstreamDoc.indexOf('| action | why'), upstreamDoc.indexOf('```', upstreamDoc.indexOf('| action | why')));
  const named = [...section.matchAll(/^\| (`[a-z-]+`(?:, `[a-z-]+`)*) \|/gm)].flatMap((m) => [...m[1]!.matchAll(/`([a-z-]+)`/g)].map((x) => x[1]!));
  expect(named.sort()).toEqual(needsCluster);
});

test('docs/upstream.md lists every wire action as working, and docs/chaos.md names every refused one', () => {
  const line = upstreamDoc.slice(upstreamDoc.indexOf('Every wire action works:'), upstreamDoc.indexOf('\n\n', upstreamDoc.indexOf('Every wire action works:')));
  expect([...line.matchAll(/`([a-z-]+)`/g)].map((m) => m[1]!).sort()).toEqual(wire);
  for (const type of needsCluster) expect(chaosDoc).toContain(`\`${type}\``);
  expect(chaosDoc).toContain(NEEDS_CLUSTER);
});

test('an engine without a cluster model accepts every wire action of the docs and refuses the others with the documented reason', () => {
  const engine = new ChaosEngine({ seed: 1, log: createLogger({ logLevel: 'silent', prettyLogs: false }) });
  try {
    for (const type of needsCluster) expect(() => engine.addRule({ action: { type } })).toThrow(`action.type: '${type}' ${NEEDS_CLUSTER}`);
    // The documented refusal line, word for word.
    expect(upstreamDoc).toContain(`refused: action.type: 'stop-node' ${NEEDS_CLUSTER}`);
  } finally {
    engine.close();
  }
});
