// `kafkaesque preset list|show|apply`. list and show read the preset files
// here (no instance needed); apply sends the preset to a running instance,
// which adds its rules through applyPreset (src/presets/apply.ts).
import type { Argv, CommandModule } from 'yargs';
import { isPresetPath, listPresets, resolvePreset } from '../presets/load.js';
import { parsePresetRef } from '../presets/params.js';
import { clientFor, clientOptions, print, printJson, run, type ClientArgs } from './common.js';
import { ruleLine } from './fault.js';

const list: CommandModule<object, { json: boolean }> = {
  command: ['list', 'ls'],
  describe: 'List the built-in presets',
  builder: (y) => y.option('json', { type: 'boolean', default: false, describe: 'Print JSON' }) as never,
  handler: run((args) => {
    const presets = listPresets();
    if (args.json) printJson(presets.map(({ file: _file, ...p }) => p));
    else for (const p of presets) print(`${p.name}\t${p.description}`);
  }),
};

const show: CommandModule<object, { preset: string; json: boolean }> = {
  command: 'show <preset>',
  describe: 'Show a preset (a built-in name or a file path): its rules and what a correct app does',
  builder: (y) =>
    y
      .positional('preset', { type: 'string', demandOption: true })
      .option('json', { type: 'boolean', default: false, describe: 'Print the preset as JSON' })
      .example('$0 preset show lost-ack', '')
      .example('$0 preset show ./my-story.json', 'check a preset file of your own') as never,
  handler: run((args) => {
    const { file, ...p } = resolvePreset(String(args.preset));
    if (args.json) return printJson(p);
    print(`${p.name}${file && isPresetPath(String(args.preset)) ? ` (${file})` : ''}`);
    print(`  ${p.description}`);
    if (p.params) {
      print('params:');
      for (const [name, d] of Object.entries(p.params)) print(`  ${name}: ${d.description}`);
    }
    print('rules:');
    for (const r of p.rules) print(`  ${JSON.stringify(r)}`);
    print('expect:');
    print(`  ${p.expect}`);
  }),
};

const apply: CommandModule<object, ClientArgs & { presets: string[] }> = {
  command: 'apply <presets..>',
  describe: 'Add the rules of presets (built-in names or file paths) to a running instance',
  builder: (y) =>
    clientOptions(y)
      .positional('presets', { type: 'string', array: true, demandOption: true })
      .example('$0 preset apply lost-ack', '')
      .example("$0 preset apply 'lost-ack?topic=orders'", 'aimed at one topic (a value between slashes is a regular expression)')
      .example('$0 preset apply ./my-story.json --json', 'a preset file of your own') as never,
  handler: run(async (args) => {
    // Every file is read and checked before anything is sent.
    const presets = args.presets.map((p) => ({ arg: String(p), preset: resolvePreset(String(p)) }));
    const client = clientFor(args);
    const out = [];
    for (const { arg, preset } of presets) {
      const applied = await client.applyPreset(preset.name, isPresetPath(parsePresetRef(arg).name) ? preset : undefined, preset.args);
      out.push(applied);
      if (!args.json) {
        print(`applied ${applied.preset}: ${applied.rules.length} rule(s)`);
        for (const r of applied.rules) print(`  ${ruleLine(r)}`);
      }
    }
    if (args.json) printJson(out);
  }),
};

export const presetCommand: CommandModule = {
  command: 'preset <command>',
  describe: 'List, show and apply presets: one failure story each (docs/presets.md)',
  builder: (y: Argv) => y.command(list).command(show).command(apply).demandCommand(1, 'Name a preset command: list, show or apply'),
  handler: () => {},
};
