// The command line every bench part shares (rdkafka, latency, partitions,
// connections): its own options plus --targets, --json, --quiet, --timeout,
// and a hard time bound that kills the brokers if the part overruns.
//
//   node bench/<part>.mjs [--targets mock,ours,proxy] [--json FILE|-] [--quiet] [--timeout S] [part options]
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

import { killAll } from './broker-process.mjs';
import { targetSpecs } from './targets.mjs';

/**
 * part: { name, usage, options (node:util parseArgs options; string values
 * are numbers unless named in stringOptions), defaults: { timeout, targets },
 * run(specs, o, log) -> result, method, formatTable(result) -> string }.
 */
export async function partMain(part, argv = process.argv.slice(2)) {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        ...part.options,
        targets: { type: 'string', default: part.defaults.targets ?? 'mock,ours,proxy' },
        timeout: { type: 'string', default: String(part.defaults.timeout) },
        json: { type: 'string' },
        quiet: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }));
  } catch (err) {
    process.stderr.write(`${err.message}\n${part.usage}`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(part.usage);
    return 0;
  }
  const o = {};
  for (const [k, v] of Object.entries(values)) {
    if (typeof v !== 'string' || k === 'targets' || k === 'json' || part.stringOptions?.includes(k)) o[k] = v;
    else if (!Number.isFinite(Number(v)) || Number(v) < 0) {
      process.stderr.write(`--${k} needs a number >= 0, got ${v}\n`);
      return 2;
    } else o[k] = Number(v);
  }
  const which = values.targets.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = which.filter((t) => !['mock', 'ours', 'proxy'].includes(t));
  if (unknown.length) {
    process.stderr.write(`--targets: unknown ${unknown.join(', ')} (mock, ours, proxy)\n`);
    return 2;
  }
  const specs = targetSpecs({ which });
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
  if (values.json === '-') process.stdout.write(`${JSON.stringify(result)}\n`);
  else if (values.json) fs.writeFileSync(values.json, `${JSON.stringify(result, null, 2)}\n`);
  if (!values.quiet) process.stdout.write(`${part.method}\n\n${part.formatTable(result)}\n`);
  return result.failed ? 1 : 0;
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
