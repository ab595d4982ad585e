// `kafkaesque events [--follow]`: the fault and cluster events of a running
// instance; --follow long-polls until interrupted.
import type { CommandModule } from 'yargs';
import type { ChaosEvent } from '../chaos/api.js';
import { clientFor, clientOptions, print, printJson, run, type ClientArgs } from './common.js';
import { wholeFlag } from './flags.js';

/** One event as a text line: seq, ISO time (UTC), kind, rule and action, where, detail; tab-separated. */
export function eventLine(e: ChaosEvent): string {
  const where = [e.nodeId !== undefined ? `node ${e.nodeId}` : '', e.api ? `${e.api} v${e.apiVersion}` : '', e.topic !== undefined ? `${e.topic}${e.partition !== undefined ? `-${e.partition}` : ''}` : '', e.clientId ? `client ${e.clientId}` : '']
    .filter(Boolean)
    .join(' ');
  const rule = e.ruleId ? ` ${e.ruleId} ${e.action}` : '';
  return `${e.seq}\t${new Date(e.time).toISOString()}\t${e.kind}${rule}${where ? `\t${where}` : ''}${e.detail ? `\t${JSON.stringify(e.detail)}` : ''}`;
}

type EventsArgs = ClientArgs & { since: number; limit?: number; follow: boolean };

export const eventsCommand: CommandModule<object, EventsArgs> = {
  command: 'events',
  describe: 'Print fault and cluster events; --follow keeps printing them as they happen',
  builder: (y) =>
    clientOptions(y)
      .option('since', wholeFlag('since', 'The last seq already seen', [0, Number.MAX_SAFE_INTEGER], { default: 0 }))
      .option('limit', wholeFlag('limit', 'Most events (without --follow)', [1, 2 ** 31 - 1]))
      .option('follow', { alias: 'f', type: 'boolean', default: false, describe: 'Keep waiting for events until interrupted (one line, or JSON object, each)' })
      .example('$0 events', 'every event so far')
      .example('$0 events --follow --json', 'one JSON object a line, as they happen') as never,
  handler: run(async (args) => {
    const client = clientFor(args);
    const since = args.since;
    if (!args.follow) {
      const page = await client.events({ since, limit: args.limit });
      if (args.json) printJson(page);
      else for (const e of page.events) print(eventLine(e));
      return;
    }
    const stop = new AbortController();
    const quit = () => stop.abort();
    process.once('SIGINT', quit);
    process.once('SIGTERM', quit);
    const aborted = new Promise<void>((resolve) => stop.signal.addEventListener('abort', () => resolve()));
    const events = client.followEvents({ since, waitMs: 10_000, signal: stop.signal });
    // An interrupt ends the wait at once rather than after the current long poll.
    for (;;) {
      const next = await Promise.race([events.next(), aborted.then(() => undefined)]);
      if (next === undefined || next.done) break;
      if (args.json) printJson(next.value);
      else print(eventLine(next.value));
    }
    process.exit(process.exitCode ?? 0);
  }),
};
