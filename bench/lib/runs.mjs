// The run loop every bench part shares: rounds of runs, every target once a
// round in interleaved order (a b c, c b a, ...) so that drift favours none,
// each run on a freshly spawned broker; a run that fails is kept as an error
// and the part goes on. Then the medians of what the runs measured.
import { performance } from 'node:perf_hooks';

import { startBroker } from './broker-process.mjs';
import { median, spread } from './stats.mjs';
import { orderFor } from './targets.mjs';

/**
 * `runs` rounds of measure(run) over specs, where run is { spec, index
 * (1-based), error(message): keeps a problem the run survived, broker }.
 * broker(spec), when given, is the startBroker options of a fresh broker for
 * each run, stopped after it; without it measure starts its own. what names
 * the part in log lines. A target is skipped once performance.now() is within
 * reserveMs of until, and no longer run after giveUpAfter failures in a row
 * (streaks: the count per target, to carry it from one loop to the next).
 *
 * Returns { results: { target: [what measure returned] }, failures: [{ target,
 * run, message }], errors: ['target run N: message'] }.
 */
export async function interleavedRuns(specs, { runs, what, log, broker, until = Infinity, reserveMs = 0, giveUpAfter = Infinity, streaks = {} }, measure) {
  const results = Object.fromEntries(specs.map((s) => [s.name, []]));
  const failures = [];
  for (let i = 0; i < runs; i++) {
    for (const spec of orderFor(specs, i)) {
      const index = i + 1;
      if (performance.now() > until - reserveMs) {
        log(`  time budget nearly spent: skipping ${what} run ${index} of ${spec.name}`);
        continue;
      }
      if ((streaks[spec.name] ?? 0) >= giveUpAfter) continue;
      const run = { spec, index, error: (message) => failures.push({ target: spec.name, run: index, message }) };
      try {
        const r = broker ? await withBroker(spec, broker(spec), (b) => measure({ ...run, broker: b })) : await measure(run);
        results[spec.name].push(r);
        streaks[spec.name] = 0;
      } catch (err) {
        const message = err?.message ?? String(err);
        run.error(message);
        log(`  ${what} ${spec.name} run ${index} failed: ${message.split('\n')[0]}`);
        streaks[spec.name] = (streaks[spec.name] ?? 0) + 1;
        if (streaks[spec.name] === giveUpAfter) log(`  ${spec.name}: failed ${giveUpAfter} times in a row, not running it again`);
      }
    }
  }
  const errors = failures.map((f) => `${f.target} run ${f.run}: ${f.message}`);
  return { results, failures, errors };
}

/** A fresh broker for one run: started, handed to use(broker), stopped whatever use does. */
export async function withBroker(spec, options, use) {
  const broker = await startBroker(spec, options);
  try {
    return await use(broker);
  } finally {
    await broker.stop();
  }
}

/**
 * Per target: the median over its runs of each key, and how many runs; with
 * verified, whether there were runs and every one has verified set; with
 * spreadDigits, each key's min..max.
 */
export function summarizeRuns(results, keys, { verified = false, spreadDigits } = {}) {
  return Object.fromEntries(
    Object.entries(results).map(([target, runs]) => {
      const s = Object.fromEntries(keys.map((k) => [k, median(runs.map((r) => r[k]))]));
      s.runs = runs.length;
      if (verified) s.verified = runs.length > 0 && runs.every((r) => r.verified);
      if (spreadDigits !== undefined) s.spread = Object.fromEntries(keys.map((k) => [k, spread(runs.map((r) => r[k]), spreadDigits)]));
      return [target, s];
    }),
  );
}
