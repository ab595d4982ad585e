#!/usr/bin/env node
// The kafkaesque command line: one yargs module per verb under ./cli/.
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { startCommand } from './cli/start.js';
import { version } from './index.js';

await yargs(hideBin(process.argv))
  .scriptName('kafkaesque')
  .command(startCommand)
  .demandCommand(1, 'Name a command; try: kafkaesque start')
  .strict()
  .version(version)
  .help()
  .parseAsync();
