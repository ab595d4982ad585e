// Preset files: the built-in ones in the package's presets/ folder, and any
// file a user names by path. Loading parses and validates; an error names the
// file, the field and why (RuleValidationError with `file`).
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RuleValidationError } from '../chaos/api.js';
import { validatePreset, type Preset } from './validate.js';
import { checkParamValues, parsePresetRef, type PresetRef } from './params.js';

function isPackageRoot(dir: string): boolean {
  try {
    return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string }).name === 'kafkaesque';
  } catch {
    return false;
  }
}

/**
 * The package's presets/ folder. This module runs from src/presets/ (tests),
 * dist/presets/ (the library), dist/cjs/presets/ (its CommonJS copy) or
 * dist/cli.js (the bundled CLI): look upwards for the folder that holds
 * kafkaesque's package.json and presets/ (dist/cjs has a package.json too).
 */
export function builtinPresetsDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    if (isPackageRoot(dir) && existsSync(join(dir, 'presets'))) return join(dir, 'presets');
    dir = dirname(dir);
  }
  throw new Error(`kafkaesque's presets/ folder was not found above ${fileURLToPath(import.meta.url)}`);
}

/** Reads and validates one preset file; the name inside must match the file name. */
export function loadPresetFile(path: string): Preset {
  const file = resolve(path);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new RuleValidationError('file', `cannot be read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, file);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new RuleValidationError('file', `is not JSON: ${(err as Error).message}`, file);
  }
  const preset = validatePreset(raw, file);
  const stem = basename(file).replace(/\.json$/i, '');
  if (dirname(file) === builtinPresetsDir() && stem !== preset.name) throw new RuleValidationError('name', `must match the file name ('${stem}'), got '${preset.name}'`, file);
  return preset;
}

/** Every built-in preset, by name order. */
export function listPresets(dir = builtinPresetsDir()): Preset[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => loadPresetFile(join(dir, f)));
}

/** A path (it has a '/' or ends in .json) or a built-in preset's name. Unknown names throw, listing the known ones. */
export function isPresetPath(nameOrPath: string): boolean {
  return nameOrPath.includes('/') || nameOrPath.includes('\\') || nameOrPath.endsWith('.json');
}

export class UnknownPresetError extends Error {
  override name = 'UnknownPresetError';
  constructor(readonly preset: string, readonly known: string[]) {
    super(`no preset '${preset}' (presets: ${known.join(', ')})`);
  }
}

/** The built-in preset of that name, or undefined. */
export function findPreset(name: string, dir = builtinPresetsDir()): Preset | undefined {
  if (!/^[a-z0-9][a-z0-9-]*$/.test(name)) return undefined;
  const file = join(dir, `${name}.json`);
  return existsSync(file) ? loadPresetFile(file) : undefined;
}

/**
 * Resolves `--preset` input: a file path or a built-in name, optionally with
 * parameter values (`lost-ack?topic=orders`, or { name, params }), checked
 * here and kept as the preset's `args` for applyPreset.
 */
export function resolvePreset(ref: string | PresetRef, dir = builtinPresetsDir()): Preset {
  const { name: nameOrPath, params } = parsePresetRef(ref);
  const p = isPresetPath(nameOrPath) ? loadPresetFile(nameOrPath) : findPreset(nameOrPath, dir);
  if (!p) throw new UnknownPresetError(nameOrPath, listPresetNames(dir));
  if (params === undefined) return p;
  return { ...p, args: checkParamValues(p, params) };
}

export function listPresetNames(dir = builtinPresetsDir()): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -5))
    .sort();
}
