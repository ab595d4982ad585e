#!/usr/bin/env node
// The kafkaesque command line: one yargs module per verb under ./cli/.
// Exit codes: 0 done, 1 refused or failed, 2 usage.
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { EXIT_FAILED, EXIT_USAGE } from './cli/common.js';
import { eventsCommand } from './cli/events.js';
import { faultCommand } from './cli/fault.js';
import { leaderCommand } from './cli/leader.js';
import { nodeCommand } from './cli/node.js';
import { presetCommand } from './cli/preset.js';
import { resetCommand } from './cli/reset.js';
import { startCommand } from './cli/start.js';
import { statusCommand } from './cli/status.js';
import { topicCommand } from './cli/topic.js';
import { version } from './index.js';

await yargs(hideBin(process.argv))
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
  .demandCommand(1, 'Name a command; try: kafkaesque start')
  .strict()
  .version(version)
  .help()
  .fail((message, err) => {
    // yargs' own complaints (unknown flag, missing argument) are usage errors; anything thrown is a failure.
    if (err && !message) {
      process.stderr.write(`kafkaesque: ${err.message}\n`);
      process.exit(EXIT_FAILED);
    }
    process.stderr.write(`kafkaesque: ${message ?? err?.message}\nRun with --help for usage.\n`);
    process.exit(EXIT_USAGE);
  })
  .parseAsync();
