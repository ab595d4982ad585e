// CommonJS copies of the library for test files that `require` it: jest's
// module system runs CommonJS (babel-jest, @swc/jest, ts-jest by default)
// and cannot `require` an ES module, whatever Node itself can do. One file
// per source file, under dist/cjs/ (a "type": "commonjs" scope), so that the
// copies share module state as the ES modules do: `kafkaesque` and
// `kafkaesque/jest` hand out the same ControlClient class, not two. Packages
// that ship only ES modules are inlined where a source file imports them;
// every other package stays a require().
//
//   dist/cjs/**/*.js    the CommonJS modules ("require" in package.json exports)
//   dist/cjs/**/*.d.ts  tsc's declarations, copied, so TypeScript reads them as CommonJS
import { build } from 'esbuild';
import { cpSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(new URL('..', import.meta.url).pathname);
const src = join(root, 'src');
const out = join(root, 'dist/cjs');
/** ES-module-only packages: bundled into the module that imports them. */
const INLINE = new Set(['get-port', 'yargs', 'yargs-parser']);
/** Not required by anyone: the CLI is bundled on its own (scripts/bundle-cli.mjs), and vitest imports ES modules. */
const notLibrary = (rel) => rel === 'cli.ts' || rel === 'cli-launcher.ts' || rel.startsWith('cli/') || rel.startsWith('vitest/') || rel.startsWith('web/');

const walk = (d) => readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(d, e.name)) : [join(d, e.name)]));
const entryPoints = walk(src).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && !notLibrary(relative(src, f)));

const keepImports = {
  name: 'keep-imports',
  setup(b) {
    // The sources load outside their package's "type": "module", so that esbuild
    // honours __esModule in what they require (default exports of other source files).
    b.onResolve({ filter: /.*/ }, (args) => (args.kind === 'entry-point' ? { path: resolve(args.path), namespace: 'source' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'source' }, (args) => ({ contents: readFileSync(args.path, 'utf8'), loader: 'ts', resolveDir: dirname(args.path) }));
    b.onResolve({ filter: /.*/ }, (args) => {
      if (args.namespace !== 'source') return undefined;
      if (args.path.startsWith('.')) return { path: args.path, external: true }; // another source file: its own CommonJS module
      const name = args.path.startsWith('@') ? args.path.split('/').slice(0, 2).join('/') : args.path.split('/')[0];
      return INLINE.has(name) ? undefined : { path: args.path, external: true };
    });
  },
};

rmSync(out, { recursive: true, force: true });
await build({
  entryPoints,
  outdir: out,
  outbase: src,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  plugins: [keepImports],
  // The sources are ES modules: import.meta.url becomes the CommonJS file's own URL.
  define: { 'import.meta.url': '__kafkaesqueModuleUrl' },
  banner: { js: "var __kafkaesqueModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
  // import() of a package becomes require(): jest's CommonJS runtime cannot import().
  supported: { 'dynamic-import': false },
  logLevel: 'warning',
});
writeFileSync(join(out, 'package.json'), JSON.stringify({ type: 'commonjs' }) + '\n');
const dist = join(root, 'dist');
for (const f of walk(dist)) {
  const rel = relative(dist, f);
  if (f.endsWith('.d.ts') && !f.startsWith(out) && !notLibrary(rel.replace(/\.d\.ts$/, '.ts'))) cpSync(f, join(out, rel));
}
