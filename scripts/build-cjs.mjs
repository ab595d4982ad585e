// CommonJS copies of the library for test files that `require` it: jest's
// module system runs CommonJS (babel-jest, @swc/jest, ts-jest by default)
// and cannot `require` an ES module, whatever Node itself can do. Each file
// of the ES module bundle (scripts/bundle-lib.mjs: the entry points and their
// shared and lazy chunks) is turned into a CommonJS file at the same place
// under dist/cjs/ (a "type": "commonjs" scope), so that the copies share
// module state as the ES modules do: `kafkaesque` and `kafkaesque/jest` hand
// out the same ControlClient class, not two. A dozen files instead of one per
// source file: jest evaluates them again in every test file, and resolving
// and compiling ~230 small modules was most of a `require('kafkaesque')`.
//
//   dist/cjs/**/*.js    the CommonJS modules ("require" in package.json exports)
//   dist/cjs/**/*.d.ts  tsc's declarations, copied, so TypeScript reads them as CommonJS
import { transform } from 'esbuild';
import { cpSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { BANNER } from './bundle-banner.mjs';

const root = resolve(new URL('..', import.meta.url).pathname);
const dist = join(root, 'dist');
const out = join(dist, 'cjs');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
/** Not required by anyone: the CLI is bundled on its own (scripts/bundle-cli.mjs), and vitest imports ES modules. */
const notLibrary = (rel) => rel === 'cli.ts' || rel === 'cli-launcher.ts' || rel.startsWith('cli/') || rel.startsWith('vitest/') || rel.startsWith('web/');

const walk = (d) => readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(d, e.name)) : [join(d, e.name)]));

/** dist/<path>.js of every "require" target in package.json's exports (dist/cjs/<path>.js), and every chunk. */
const entries = Object.values(pkg.exports)
  .map((e) => e.require?.default)
  .filter((t) => typeof t === 'string')
  .map((t) => t.replace(/^\.\/dist\/cjs\//, ''));
const chunks = readdirSync(join(dist, 'chunks')).filter((f) => f.endsWith('.js')).map((f) => `chunks/${f}`);

rmSync(out, { recursive: true, force: true });
for (const rel of [...entries, ...chunks]) {
  const source = readFileSync(join(dist, rel), 'utf8');
  if (!source.startsWith(BANNER)) throw new Error(`dist/${rel}: not a file of scripts/bundle-lib.mjs (no banner)`);
  const { code } = await transform(source.slice(BANNER.length).replace(/\n\/\/# sourceMappingURL=.*\n?$/, '\n'), {
    loader: 'js',
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    // import.meta.url becomes the CommonJS file's own URL.
    define: { 'import.meta.url': '__kafkaesqueModuleUrl' },
    banner: "var __kafkaesqueModuleUrl = require('node:url').pathToFileURL(__filename).href;",
    // import() of a lazy chunk becomes require(): jest's CommonJS runtime cannot import().
    supported: { 'dynamic-import': false },
    sourcefile: rel,
    logLevel: 'warning',
  });
  mkdirSync(dirname(join(out, rel)), { recursive: true });
  writeFileSync(join(out, rel), code);
}
writeFileSync(join(out, 'package.json'), JSON.stringify({ type: 'commonjs' }) + '\n');
for (const f of walk(dist)) {
  const rel = relative(dist, f);
  if (f.endsWith('.d.ts') && !f.startsWith(out) && !notLibrary(rel.replace(/\.d\.ts$/, '.ts'))) cpSync(f, join(out, rel));
}
