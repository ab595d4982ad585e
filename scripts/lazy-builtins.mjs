// Node's built-in modules, for the bundles (scripts/bundle-lib.mjs,
// scripts/bundle-cli.mjs): those Node does not load for itself at start are
// required on the first use of one of their exports. net, crypto, tls and
// http cost ~6 ms of every `import('kafkaesque')` for functions that run only
// once a cluster starts (isIP, randomUUID, createServer…), and zlib and
// child_process a millisecond of every CLI start for the report and `sweep`.
// esbuild reads a CommonJS export at each use (`(0, import_node_net.isIP)(…)`),
// so a getter per export name (taken from the building Node's module) is enough.
import { createRequire } from 'node:module';

export const LAZY_BUILTINS = new Set(['node:net', 'node:tls', 'node:crypto', 'node:http', 'node:https', 'node:zlib', 'node:dns', 'node:stream', 'node:child_process', 'node:readline', 'node:worker_threads']);

const requireOf = createRequire(import.meta.url);

/** A CommonJS module that is the built-in, loaded when one of its exports is first read. */
function lazySource(id) {
  const names = Object.keys(requireOf(id)).filter((k) => k !== 'default');
  return [
    'let loaded;',
    `const load = () => (loaded ??= require(${JSON.stringify(id)}));`,
    `for (const name of ${JSON.stringify(names)}) Object.defineProperty(module.exports, name, { enumerable: true, get: () => load()[name] });`,
  ].join('\n');
}

/**
 * `all`: every node: import by require() (an ES import of a built-in builds
 * its namespace from every export, which runs the lazy getters: node:crypto's
 * webcrypto, node:stream's web streams…, ~15 ms at start for what the library
 * never uses); otherwise only the lazy ones are touched.
 */
export function builtinsPlugin({ all }) {
  return {
    name: 'builtins',
    setup(b) {
      b.onResolve({ filter: /^node:/ }, (args) => {
        if (args.namespace === 'builtin') return { path: args.path, external: true };
        return all || LAZY_BUILTINS.has(args.path) ? { path: args.path, namespace: 'builtin' } : undefined;
      });
      b.onLoad({ filter: /.*/, namespace: 'builtin' }, (args) => ({
        contents: LAZY_BUILTINS.has(args.path) ? lazySource(args.path) : `module.exports = require(${JSON.stringify(args.path)});`,
        loader: 'js',
      }));
    },
  };
}
