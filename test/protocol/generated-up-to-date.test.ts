import { execFileSync } from 'node:child_process';

test('src/protocol/messages is exactly what the generator makes from the schemas', () => {
  // --check exits non-zero (and execFileSync throws) when any file would change.
  const out = execFileSync(process.execPath, ['scripts/gen-protocol.mjs', '--check'], { encoding: 'utf8' });
  expect(out).toMatch(/files up to date/);
});
