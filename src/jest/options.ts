// The jest fixture's options: `globals.kafkaesque` of the jest config (any
// startCluster option that is plain JSON), then the environment on top:
// KAFKAESQUE_OPTIONS (a JSON object of the same options) and
// KAFKAESQUE_PRESETS (comma-separated preset names or paths).
import type { KafkaesqueOptions } from '../options.js';

/** What the fixture accepts: startCluster's options that survive JSON (no logger, no clock). */
export type FixtureOptions = Partial<Omit<KafkaesqueOptions, 'logger' | 'clock'>>;

/** The fixture's own defaults: free ports everywhere, so parallel CI jobs do not collide. */
export const fixtureDefaults: FixtureOptions = Object.freeze({ port: 0, controlPort: 0 });

function object(v: unknown, where: string): FixtureOptions {
  if (v === undefined) return {};
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new TypeError(`kafkaesque jest fixture: ${where} must be an object of startCluster options, got ${JSON.stringify(v)}`);
  return v as FixtureOptions;
}

export function fixtureOptions(globals: Record<string, unknown> | undefined, env: NodeJS.ProcessEnv = process.env): FixtureOptions {
  const fromConfig = object(globals?.kafkaesque, 'globals.kafkaesque');
  let fromEnv: FixtureOptions = {};
  if (env.KAFKAESQUE_OPTIONS) {
    try {
      fromEnv = object(JSON.parse(env.KAFKAESQUE_OPTIONS), 'KAFKAESQUE_OPTIONS');
    } catch (err) {
      if (err instanceof TypeError) throw err;
      throw new TypeError(`kafkaesque jest fixture: KAFKAESQUE_OPTIONS is not JSON: ${(err as Error).message}`);
    }
  }
  const merged: FixtureOptions = { ...fixtureDefaults, ...fromConfig, ...fromEnv };
  if (env.KAFKAESQUE_PRESETS) merged.presets = [...(merged.presets ?? []), ...env.KAFKAESQUE_PRESETS.split(',').map((s) => s.trim()).filter(Boolean)];
  return merged;
}
