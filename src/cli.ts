#!/usr/bin/env node
// The kafkaesque command line: one yargs module per verb under ./cli/.
// Exit codes (src/cli/exit-codes.ts, docs/cli.md): 0 done, 1 a finding or a
// failure at run time, 2 usage, 3 input refused.
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { EXIT_FAILED, EXIT_USAGE, describeFailure } from './cli/common.js';
import { stdinDashes } from './cli/flags.js';
import { auditCommand } from './cli/audit.js';
import { eventsCommand } from './cli/events.js';
import { faultCommand } from './cli/fault.js';
import { leaderCommand } from './cli/leader.js';
import { nodeCommand } from './cli/node.js';
import { presetCommand } from './cli/preset.js';
import { resetCommand } from './cli/reset.js';
import { startCommand } from './cli/start.js';
import { statusCommand } from './cli/status.js';
import { sweepCommand } from './cli/sweep.js';
import { topicCommand } from './cli/topic.js';
import { version } from './version.js';

/** The part of yargs' internals that caches the running command's help text. */
interface YargsUsageInternals {
  getInternalMethods?: () => { getUsageInstance?: () => { cacheHelpMessage?: () => void } };
}

const argv = stdinDashes(hideBin(process.argv));
const cli = yargs(argv);
if (!argv.some((a) => a === '--help' || a === '-h' || a === 'help')) {
  // yargs renders the running command's help text in advance, in case the
  // command asks to show it later; ours never do (failures print a message
  // and "Run with --help"), and rendering start's ~60 options cost 15-40 ms
  // of every start. Help that is asked for is rendered as usual.
  const usage = (cli as unknown as YargsUsageInternals).getInternalMethods?.().getUsageInstance?.();
  if (usage?.cacheHelpMessage) usage.cacheHelpMessage = () => {};
}

// No top-level await: the bundle is CommonJS, so that its compiled code can be
// cached between runs (src/cli-launcher.ts).
cli
  .scriptName('kafkaesque')
  // Messages are in English; looking for a locale costs ~15 ms of start-up.
  .detectLocale(false)
  .command(startCommand)
  .command(statusCommand)
  .command(faultCommand)
  .command(presetCommand)
  .command(topicCommand)
  .command(nodeCommand)
  .command(leaderCommand)
  .command(eventsCommand)
  .command(resetCommand)
  .command(auditCommand)
  .command(sweepCommand)
  .demandCommand(1, 'Name a command; try: kafkaesque start')
  .strict()
  .version(version)
  .help()
  .fail((message, err) => {
    // yargs' own complaints (unknown flag, missing argument) are usage errors; anything thrown is a failure.
    if (err && !message) {
      const failure = describeFailure(err);
      process.stderr.write(`kafkaesque: ${failure.message}\n`);
      process.exit(failure.code);
    }
    process.stderr.write(`kafkaesque: ${message ?? err?.message}\nRun with --help for usage.\n`);
    process.exit(EXIT_USAGE);
  })
  .parseAsync()
  .catch((err: unknown) => {
    process.stderr.write(`kafkaesque: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(EXIT_FAILED);
  });
