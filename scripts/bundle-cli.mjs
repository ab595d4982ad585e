// Bundles the CLI into dist/cli.js. Loading ~60 ES modules plus yargs'
// own costs about 80 ms at start-up on a small CI machine; one file cuts
// that, and start-up time is part of what kafkaesque promises. Packages that
// load files or native binaries at run time stay external.
import { build } from 'esbuild';

await build({
  entryPoints: ['src/cli.ts'],
  outfile: 'dist/cli.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['pino', 'pino-pretty', '@node-rs/crc32', 'snappyjs'],
  banner: { js: "import { createRequire as __kafkaesqueRequire } from 'node:module'; const require = __kafkaesqueRequire(import.meta.url);" },
  logLevel: 'warning',
});
