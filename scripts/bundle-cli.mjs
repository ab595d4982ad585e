// Bundles the CLI. Loading ~60 ES modules plus yargs' own costs about 80 ms
// at start-up on a small CI machine; one file cuts that, and start-up time is
// part of what kafkaesque promises. Packages that load files or native
// binaries at run time stay external.
//
//   dist/cli.cjs  the CLI in one CommonJS file (CommonJS so that V8 can cache
//                 its compiled code between runs: src/cli-launcher.ts)
//   dist/cli.js   the `kafkaesque` command: runs dist/cli.cjs with that cache
import { build } from 'esbuild';

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

await build({
  entryPoints: ['src/cli-launcher.ts'],
  outfile: 'dist/cli.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  logLevel: 'warning',
});
