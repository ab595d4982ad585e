import { pino, type Logger } from 'pino';

export type { Logger };

export interface LoggerOptions {
  /** pino level; 'silent' turns logging off. */
  logLevel?: string;
  /** Human-readable lines (pino-pretty) instead of JSON. */
  prettyLogs?: boolean;
}

/** The project's logger: JSON lines on stderr, so stdout stays free for the CLI's ready line. */
export function createLogger(options: LoggerOptions = {}): Logger {
  const level = options.logLevel ?? 'info';
  if (options.prettyLogs) {
    return pino({ level, base: null, transport: { target: 'pino-pretty', options: { destination: 2, colorize: false } } });
  }
  return pino({ level, base: null }, pino.destination({ dest: 2, sync: false }));
}

export const silentLogger: Logger = pino({ level: 'silent' });
