#!/usr/bin/env node
// The bug-class matrix (issue 12): every bug-class application of
// test/bug-classes/, buggy and fixed twin, under every built-in preset, with
// seeds 1, 2 and 3, each cell on a fresh cluster, and with no preset at all
// (`none`: the baseline, which a buggy twin must pass too). Prints which
// presets catch which buggy twin on how many seeds, and loudly any fixed twin
// that fails (a false alarm) and any buggy twin that fails without a fault.
// Exit code 1 when there is one of those, or an error.
//
//   node bench/bug-classes.mjs                                  # the whole matrix (~10 min on 2 cores)
//   node bench/bug-classes.mjs --apps no-dedup,acks-1 --presets redelivery --seeds 1
//   node bench/bug-classes.mjs --twins buggy --jobs 1 --json bench/.ref/bug-classes.json
//
// The harness is TypeScript (test/bug-classes/harness.ts, which the jest test
// uses too): esbuild bundles it into bench/.ref/ first, so no build is needed.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const repo = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const list = (name) => flag(name)?.split(',').filter(Boolean);

const bundle = path.join(repo, 'bench', '.ref', 'bug-classes-harness.mjs');
// The apps are found next to the harness: the bundle is told where they are.
await build({
  entryPoints: [path.join(repo, 'test/bug-classes/matrix.ts')],
  outfile: bundle,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  define: { 'import.meta.url': JSON.stringify(pathToFileURL(path.join(repo, 'test/bug-classes/harness.ts')).href) },
  logLevel: 'warning',
});
const { BUG_CLASSES, listPresetNames, runCells, matrixCells, formatMatrix } = await import(pathToFileURL(bundle).href);

const cells = matrixCells({
  apps: list('apps') ?? BUG_CLASSES.map((c) => c.name),
  twins: list('twins') ?? ['buggy', 'fixed'],
  presets: list('presets') ?? ['none', ...listPresetNames()],
  seeds: (list('seeds') ?? ['1', '2', '3']).map(Number),
});
const jobs = Number(flag('jobs', '2'));
process.stderr.write(`${cells.length} cells, ${jobs} at a time\n`);
const started = Date.now();
let done = 0;
const results = await runCells(cells, {
  jobs,
  onResult: (r) => process.stderr.write(`[${++done}/${cells.length}] ${r.app} ${r.twin} ${r.preset} seed ${r.seed}: ${r.verdict} (${r.ms} ms)\n`),
});
const out = formatMatrix(results);
process.stdout.write(out.text + `\n${cells.length} cells in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
const json = flag('json');
if (json) fs.writeFileSync(json, JSON.stringify(results, null, 2));
process.exitCode = out.falseAlarms + out.errors > 0 ? 1 : 0;
