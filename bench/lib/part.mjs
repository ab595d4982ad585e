// The command line every bench part shares (rdkafka, latency, partitions,
// connections, cpu): its own options plus --targets, --json, --quiet,
// --timeout; and, for every part (throughput.mjs brings a parser of its own),
// a hard time bound that kills the brokers if the part overruns, the JSON
// results and the printed method and table.
//
//   node bench/<part>.mjs [--targets mock,ours,proxy] [--baseline CLI] [--json FILE|-] [--quiet] [--timeout S] [part options]
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

import { killAll } from './broker-process.mjs';
import { oursSpec, targetSpecs } from './targets.mjs';

/**
 * part: { name (bench/<name>.mjs), options (node:util parseArgs options of
 * its own, type string with a default or a hint for the usage line; string
 * values are numbers unless named in stringOptions), defaults: { timeout,
 * targets, brokers, runs }, run(specs, o, log) -> result, method,
 * formatTable(result) -> string, targets: the target names it accepts when
 * not mock, ours, proxy }; or, instead of options and defaults, a
 * usage and parse(argv) -> what parsePartArgs returns.
 */
export async function partMain(part, argv = process.argv.slice(2)) {
  let args;
  try {
    args = part.parse ? part.parse(argv) : parsePartArgs(part, argv);
  } catch (err) {
    process.stderr.write(`${err.message}\n${part.usage ?? usageOf(part)}`);
    return 2;
  }
  if (args.help) {
    process.stdout.write(part.usage ?? usageOf(part));
    return 0;
  }
  const { o, specs, json, quiet } = args;
  const hard = setTimeout(() => {
    process.stderr.write(`bench ${part.name}: over --timeout ${o.timeout} s (+30); killing brokers\n`);
    killAll();
    process.exit(3);
  }, (o.timeout + 30) * 1000);
  hard.unref();
  const started = performance.now();
  const result = await part.run(specs, o, (s) => process.stderr.write(`${s}\n`));
  clearTimeout(hard);
  result.part = part.name;
  result.when = new Date().toISOString();
  result.elapsedSeconds = (performance.now() - started) / 1000;
  result.options = o;
  if (json === '-') process.stdout.write(`${JSON.stringify(result)}\n`);
  else if (json) fs.writeFileSync(json, `${JSON.stringify(result, null, 2)}\n`);
  if (!quiet) process.stdout.write(`${part.method}\n\n${part.formatTable(result)}\n`);
  return result.failed ? 1 : 0;
}

/** The part's own options, then those every part has. */
function optionsOf(part) {
  const d = part.defaults;
  return {
    ...part.options,
    brokers: { type: 'string', default: String(d.brokers ?? 3) },
    runs: { type: 'string', default: String(d.runs ?? 1) },
    targets: { type: 'string', default: d.targets ?? 'mock,ours,proxy' },
    timeout: { type: 'string', default: String(d.timeout) },
    json: { type: 'string', hint: 'FILE' },
    quiet: { type: 'boolean', default: false },
    // Another build of ours as target "base" (e.g. one from before a change), in the same interleaved runs.
    ...(part.options?.baseline ? {} : { baseline: { type: 'string', hint: 'CLI' } }),
  };
}

/** "node bench/<name>.mjs [--option default] ... [--quiet]", from the options. */
export function usageOf(part) {
  const words = Object.entries(optionsOf(part)).map(([k, v]) => (v.type === 'boolean' ? `[--${k}]` : `[--${k} ${v.default ?? v.hint}]`));
  return `node bench/${part.name}.mjs ${words.join(' ')}\n`;
}

/**
 * The part's options plus --brokers, --runs, --targets, --timeout, --json,
 * --quiet, --help. Returns { help: true } or { o (options, numbers but for
 * --targets, --json and stringOptions), specs, json, quiet }; throws on bad input.
 */
export function parsePartArgs(part, argv) {
  const options = Object.fromEntries(Object.entries(optionsOf(part)).map(([k, { hint, ...v }]) => [k, v]));
  const { values } = parseArgs({ args: argv, options: { ...options, help: { type: 'boolean', short: 'h', default: false } } });
  if (values.help) return { help: true };
  const o = {};
  for (const [k, v] of Object.entries(values)) {
    if (typeof v !== 'string' || k === 'targets' || k === 'json' || k === 'baseline' || part.stringOptions?.includes(k)) o[k] = v;
    else if (!Number.isFinite(Number(v)) || Number(v) < 0) throw new Error(`--${k} needs a number >= 0, got ${v}`);
    else o[k] = Number(v);
  }
  const which = values.targets.split(',').map((s) => s.trim()).filter(Boolean);
  // kfake answers whatever a part asks of a broker, so every part takes it.
  const known = [...(part.targets ?? ['mock', 'ours', 'proxy']), 'kfake'];
  const unknown = which.filter((t) => !known.includes(t));
  if (unknown.length) throw new Error(`--targets: unknown ${unknown.join(', ')} (${known.join(', ')})`);
  const specs = targetSpecs({ which });
  if (values.baseline && !part.options?.baseline) {
    const cli = path.resolve(values.baseline);
    if (!fs.existsSync(cli)) throw new Error(`--baseline: ${cli} not found`);
    specs.push(oursSpec(cli, ['--no-proxy', '--log-level', 'warn'], 'base'));
  }
  return { o, specs, json: values.json, quiet: values.quiet };
}

/** Runs partMain when the file is the entry point. */
export function runIfMain(importMetaUrl, part) {
  if (process.argv[1] && pathToFileURL(path.resolve(process.argv[1])).href === importMetaUrl) {
    partMain(part).then(
      (code) => process.exit(code),
      (err) => {
        process.stderr.write(`${err?.stack ?? err}\n`);
        killAll();
        process.exit(1);
      },
    );
  }
}
