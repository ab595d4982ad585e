// Bundles the CLI. Loading ~60 ES modules plus yargs' own costs about 80 ms
// at start-up on a small CI machine; one file cuts that, and start-up time is
// part of what kafkaesque promises. Packages that load files or native
// binaries at run time stay external.
//
//   dist/cli.cjs        the CLI in one CommonJS file (CommonJS so that V8 can
//                       cache its compiled code between runs: src/cli-launcher.ts)
//   dist/kafkaesque.cjs the `kafkaesque` command (package.json "bin"): runs
//                       dist/cli.cjs with that cache; CommonJS, since an ES
//                       module main costs Node ~10 ms more to start
//   dist/cli.js         the same launcher as an ES module, for `node dist/cli.js`
import { build } from 'esbuild';
import { readFileSync, writeFileSync } from 'node:fs';
import { builtinsPlugin } from './lazy-builtins.mjs';

await build({
  entryPoints: ['src/cli.ts'],
  outfile: 'dist/cli.cjs',
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  // selfsigned: loaded on demand for --tls, so its X.509 code is not parsed at every start.
  // pino is bundled (resolving and loading its dozen files cost ~25 ms of every
  // start).
  external: ['@node-rs/crc32', 'snappyjs', 'selfsigned'],
  // zlib (the report) and child_process (`sweep`) when first used, not at every start.
  plugins: [builtinsPlugin({ all: false })],
  // yargs renders the help of the command being run even when nobody asks
  // for it; string-width (via cliui) measures each character with
  // Intl.Segmenter and a fresh emoji RegExp, which made that ~50 ms of every
  // `kafkaesque start`. fast-string-width gives the same widths quickly.
  alias: { 'string-width': 'fast-string-width' },
  // The global fetch loads undici on first use (~50 ms of every command that
  // talks to an instance); the CLI's is over node:http, which the bundle holds
  // anyway. The export named `fetch` replaces the global in this bundle only.
  inject: ['src/cli/http-fetch.ts'],
  // The sources are ES modules; in one CommonJS file import.meta.url is the bundle's own URL.
  define: { 'import.meta.url': '__kafkaesqueModuleUrl' },
  // import() of an external package becomes require(): code run by vm.Script
  // cannot import() without an experimental flag.
  supported: { 'dynamic-import': false },
  banner: { js: "var __kafkaesqueModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
  logLevel: 'warning',
});

// The launcher reads the bundle as Latin-1 when it is ASCII (~3 ms less than
// UTF-8). esbuild writes code as ASCII (charset: 'ascii' is its default) but
// keeps some comments as they are: those lose their non-ASCII characters.
const cli = readFileSync('dist/cli.cjs', 'utf8');
const ascii = cli
  .split('\n')
  .map((line) => {
    if (!/[^\x00-\x7f]/.test(line)) return line;
    if (!/^\s*(\/\/|\/\*|\*)/.test(line)) throw new Error(`dist/cli.cjs: non-ASCII outside a comment: ${line.trim().slice(0, 120)}`);
    return line.replace(/[^\x00-\x7f]/g, '?');
  })
  .join('\n');
if (ascii !== cli) writeFileSync('dist/cli.cjs', ascii);

for (const format of ['cjs', 'esm']) {
  await build({
    entryPoints: ['src/cli-launcher.ts'],
    outfile: format === 'cjs' ? 'dist/kafkaesque.cjs' : 'dist/cli.js',
    bundle: true,
    platform: 'node',
    format,
    target: 'node20',
    ...(format === 'cjs' ? { define: { 'import.meta.url': '__kafkaesqueModuleUrl' }, banner: { js: "var __kafkaesqueModuleUrl = require('node:url').pathToFileURL(__filename).href;" } } : {}),
    logLevel: 'warning',
  });
}
