// The jest fixture's options: `globals.kafkaesque` of the jest config (any
// startCluster option that is plain JSON), then the environment on top:
// KAFKAESQUE_OPTIONS (a JSON object of the same options) and
// KAFKAESQUE_PRESETS (comma-separated preset names or paths). Each source is
// checked against the one options schema (src/options-schema.ts), and an
// error names it: "KAFKAESQUE_OPTIONS: brokerz: unknown option; did you mean brokers?".
import type { KafkaesqueOptions } from '../options.js';
import { OptionsError, checkOptions, describeValue } from '../options-schema.js';

/** What the fixture accepts: startCluster's options that survive JSON (no logger, no clock). */
export type FixtureOptions = Partial<Omit<KafkaesqueOptions, 'logger' | 'clock'>>;

/** The fixture's own defaults: free ports everywhere, so parallel CI jobs do not collide. */
export const fixtureDefaults: FixtureOptions = Object.freeze({ port: 0, controlPort: 0 });

/** Options that are not JSON: the fixture's config travels as JSON, and its cluster logs at logLevel. */
const notJson = {
  logger: 'not available in the jest fixture (its options are JSON); set logLevel instead',
  clock: 'not available in the jest fixture (its options are JSON); start a cluster in the test file for a ManualClock',
};

function checked(v: unknown, source: string): FixtureOptions {
  if (v !== undefined && (typeof v !== 'object' || v === null || Array.isArray(v))) {
    throw new OptionsError(source, '', v, `must be an object of startCluster options, got ${describeValue(v)}`);
  }
  return checkOptions(v, source, { refuse: notJson }) as FixtureOptions;
}

export function fixtureOptions(globals: Record<string, unknown> | undefined, env: NodeJS.ProcessEnv = process.env): FixtureOptions {
  const fromConfig = checked(globals?.kafkaesque, 'globals.kafkaesque');
  let fromEnv: FixtureOptions = {};
  if (env.KAFKAESQUE_OPTIONS) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(env.KAFKAESQUE_OPTIONS);
    } catch (err) {
      throw new OptionsError('KAFKAESQUE_OPTIONS', '', env.KAFKAESQUE_OPTIONS, `not JSON: ${(err as Error).message}`);
    }
    fromEnv = checked(parsed, 'KAFKAESQUE_OPTIONS');
  }
  const merged: FixtureOptions = { ...fixtureDefaults, ...fromConfig, ...fromEnv };
  if (env.KAFKAESQUE_PRESETS) merged.presets = [...(merged.presets ?? []), ...env.KAFKAESQUE_PRESETS.split(',').map((s) => s.trim()).filter(Boolean)];
  return merged;
}
