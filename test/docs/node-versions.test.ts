// The Node lines kafkaesque says it supports are the ones CI tests: 20 (the
// system Node that runs the README's test command) and every version
// .ci/run installs. package.json's engines must accept each of them, and the
// README and docs/getting-started.md must name each line.
import { readFileSync } from 'node:fs';

const read = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');

const ciVersions = read('.ci/run').match(/^NODE_VERSIONS=\(([^)]*)\)$/m)![1]!.trim().split(/\s+/);
const engines = (JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node;
const tested = ['20.19.0', ...ciVersions];

/** Whether engines accepts a version: only the forms it uses, `^X.Y.Z` and `>=X`, joined by `||`. */
function accepts(range: string, version: string): boolean {
  const [major, minor, patch] = version.split('.').map(Number) as [number, number, number];
  return range.split('||').some((alternative) => {
    const caret = /^\^(\d+)\.(\d+)\.(\d+)$/.exec(alternative.trim());
    if (caret) {
      const [, M, m, p] = caret.map(Number) as [number, number, number, number];
      return major === M && (minor > m || (minor === m && patch >= p));
    }
    const atLeast = /^>=(\d+)$/.exec(alternative.trim());
    if (atLeast) return major >= Number(atLeast[1]);
    throw new Error(`engines.node: cannot read ${JSON.stringify(alternative.trim())} (this test knows ^X.Y.Z and >=X)`);
  });
}

test('.ci/run installs exact versions of other Node lines than the system 20', () => {
  expect(ciVersions.length).toBeGreaterThan(0);
  for (const v of ciVersions) expect(v).toMatch(/^(2[2-9]|[3-9]\d)\.\d+\.\d+$/);
});

test('engines accepts every version CI tests, and not the lines before', () => {
  for (const v of tested) expect([v, accepts(engines, v)]).toEqual([v, true]);
  // yargs 18 loads ES modules with require(): 20.19 and 22.12 are the first of their lines that can.
  for (const v of ['18.20.0', '20.18.3', '22.11.0']) expect([v, accepts(engines, v)]).toEqual([v, false]);
});

// A list such as "Node 20.19+, 22.12+ or 24" names the lines.
test('the README and getting-started name every line CI tests', () => {
  const lines = [...new Set(tested.map((v) => v.split('.')[0]!))];
  for (const doc of ['README.md', 'docs/getting-started.md']) {
    const text = read(doc);
    for (const line of lines) expect([doc, line, new RegExp(`Node (?:[\\d.+, ]|or|and)*\\b${line}\\b`).test(text)]).toEqual([doc, line, true]);
  }
});
