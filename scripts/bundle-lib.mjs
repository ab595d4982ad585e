// Bundles the library's ES module entry points (package.json "exports",
// "import" side). tsc's one file per source file meant ~230 modules to
// resolve, read and link at `import('kafkaesque')`, which was most of its
// ~110 ms on a small CI machine (issue 21, item 3). esbuild writes each entry
// point over tsc's file of the same name, with code splitting, so that:
//
//   - what several entry points share is one chunk under dist/chunks/, loaded
//     once: `kafkaesque` and `kafkaesque/jest` still hand out the same
//     ControlClient class, as the separate modules did;
//   - what the sources import() on first use (TLS, SASL, presets, the audit,
//     pino, the fixture's broker side, and what startCluster, startProxy and
//     startControlServer run: src/start-on-demand.ts) is a chunk of its own,
//     not parsed at import.
//
// tsc's other files stay in dist/ (bench/lib/wire.mjs uses its codecs) and
// its declarations describe the same exports. The CommonJS copies are built
// from the sources by scripts/build-cjs.mjs.
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';
import { BANNER } from './bundle-banner.mjs';
import { builtinsPlugin } from './lazy-builtins.mjs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

/** src/<path>.ts of every "import" target in package.json's exports. */
const entryPoints = [
  ...new Set(
    Object.values(pkg.exports)
      .map((e) => (typeof e === 'string' ? e : (e.import?.default ?? e.default)))
      .filter((t) => typeof t === 'string' && t.startsWith('./dist/') && t.endsWith('.js'))
      .map((t) => t.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts')),
  ),
];

// Packages stay packages: the user's own copy is shared, and those with
// native code or files of their own (@node-rs/crc32, pino's transports) load
// as they expect. Except valibot: importing its 200 KB module cost ~10 ms of
// every `import('kafkaesque')` for the ~40 functions options-schema.ts uses,
// which esbuild keeps alone. Its schemas are plain objects, so ours still
// work with a user's own valibot (v.parse(optionSchemas.…)).
const BUNDLED = new Set(['valibot']);
const packagesExceptBundled = {
  name: 'packages-except-bundled',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('node:') || BUNDLED.has(args.path) ? undefined : { path: args.path, external: true }));
  },
};

// Chunk names carry a hash: clear the last build's.
rmSync(new URL('../dist/chunks', import.meta.url), { recursive: true, force: true });
await build({
  entryPoints,
  outdir: 'dist',
  outbase: 'src',
  bundle: true,
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  plugins: [packagesExceptBundled, builtinsPlugin({ all: true })],
  banner: { js: BANNER.trimEnd() },
  sourcemap: true,
  logLevel: 'warning',
});
