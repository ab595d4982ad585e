// A fresh clone tests alone (issue 14): no source, test, bench or script
// reads the project's ../shared folder, which a clone does not have. Only
// comments may name it (for provenance); a line of code that names it fails
// here. CI also runs from a clone with nothing beside it.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ROOTS = ['src', 'test', 'bench', 'scripts', '.ci'];
const SKIP = new Set(['node_modules', '.ref', '.venv', 'lib', 'classes', 'fixtures', 'projects']);
const CODE = /\.(ts|mts|cts|js|mjs|cjs|py|go|java|sh)$|^run$/;

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    if (SKIP.has(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (CODE.test(name)) yield path;
  }
}

/** The line without its comment, roughly: what follows //, # or * at the start, and a trailing // comment. */
const code = (line: string) => (/^\s*(\/\/|#|\*|\/\*)/.test(line) ? '' : line.replace(/\s\/\/.*$/, ''));

test('no code names ../shared or the shared kafka-protocol folder', () => {
  const found: string[] = [];
  for (const root of ROOTS) {
    for (const file of files(root)) {
      if (file === join('test', 'docs', 'no-shared.test.ts')) continue;
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (/\.\.\/shared\b|shared\/kafka-protocol/.test(code(line))) found.push(`${file}:${i + 1}: ${line.trim()}`);
        });
    }
  }
  expect(found).toEqual([]);
});
