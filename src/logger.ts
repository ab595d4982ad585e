import { createRequire } from 'node:module';
import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

export interface LoggerOptions {
  /** pino level; 'silent' turns logging off. */
  logLevel?: string;
  /** Human-readable lines (pino-pretty) instead of JSON. */
  prettyLogs?: boolean;
}

/**
 * pino-pretty, loaded only when pretty logs are asked for (it costs start-up
 * time otherwise), and run as a stream in this thread rather than as a pino
 * transport: a transport starts a worker thread that loads pino's files by
 * path, which the bundled CLI does not ship.
 */
function prettyStream(): DestinationStream {
  const pretty = createRequire(import.meta.url)('pino-pretty') as (o: object) => DestinationStream;
  return pretty({ destination: 2, colorize: false, sync: true });
}

/** The project's logger: JSON lines on stderr, so stdout stays free for the CLI's ready line. */
export function createLogger(options: LoggerOptions = {}): Logger {
  const level = options.logLevel ?? 'info';
  if (options.prettyLogs) return pino({ level, base: null }, prettyStream());
  return pino({ level, base: null }, pino.destination({ dest: 2, sync: false }));
}

export const silentLogger: Logger = pino({ level: 'silent' });
