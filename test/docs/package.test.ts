// What a project that installs kafkaesque gets (docs/getting-started.md):
// the packed files hold every `exports` target and the `bin`, every preset
// and every doc. `npm pack --dry-run` lists them without building (scripts
// off) or writing a tarball.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

const repo = new URL('../..', import.meta.url).pathname;
type Target = string | { [condition: string]: Target };
const pkg = JSON.parse(readFileSync(`${repo}package.json`, 'utf8')) as { bin: Record<string, string>; exports: Record<string, Target> };
const packed = new Set(
  (JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: repo, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path),
);
const strip = (p: string) => p.replace(/^\.\//, '');

test('every exports target and the bin are in the package', () => {
  // Conditions nest ({ import: { types, default }, require: { … } }): every leaf is a file.
  const leaves = (t: Target): string[] => (typeof t === 'string' ? [t] : Object.values(t).flatMap(leaves));
  const targets = Object.values(pkg.exports).flatMap(leaves);
  expect([...targets, ...Object.values(pkg.bin)].map(strip).filter((p) => !packed.has(p))).toEqual([]);
  expect(readFileSync(`${repo}${pkg.bin.kafkaesque}`, 'utf8').startsWith('#!/usr/bin/env node')).toBe(true);
});

test('every preset and every doc is in the package', () => {
  const presets = readdirSync(`${repo}presets`).map((f) => `presets/${f}`);
  const docs = readdirSync(`${repo}docs`).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);
  expect([...presets, ...docs].filter((p) => !packed.has(p))).toEqual([]);
  expect([...packed].filter((p) => p.startsWith('test/') || p.startsWith('src/'))).toEqual([]);
});
