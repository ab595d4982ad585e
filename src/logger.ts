import { pino, type Logger } from 'pino';
import { lineStream } from './logger-lines.js';

export type { Logger };

export interface LoggerOptions {
  /** pino level; 'silent' turns logging off. */
  logLevel?: string;
  /** One human-readable line per event (src/logger-lines.ts) instead of JSON; default: prettyByDefault(). */
  prettyLogs?: boolean;
}

type Env = Record<string, string | undefined>;

/**
 * Whether logs should be for people when nobody said: KAFKAESQUE_PRETTY=1 or
 * 0 decides; otherwise yes when stderr is a terminal (JSON for CI logs and pipes).
 */
export function prettyByDefault(env: Env = process.env, stderrIsTty: boolean = process.stderr.isTTY === true): boolean {
  if (env.KAFKAESQUE_PRETTY !== undefined && env.KAFKAESQUE_PRETTY !== '') return env.KAFKAESQUE_PRETTY !== '0';
  return stderrIsTty;
}

/** Colour in pretty lines: on a terminal unless NO_COLOR is set; FORCE_COLOR (not 0) forces it (https://no-color.org). */
export function colourWanted(env: Env = process.env, stderrIsTty: boolean = process.stderr.isTTY === true): boolean {
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '') return env.FORCE_COLOR !== '0';
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return stderrIsTty;
}

/** The project's logger, on stderr so that stdout stays free for the CLI's ready line: JSON lines, or one line per event for people. */
export function createLogger(options: LoggerOptions = {}): Logger {
  const level = options.logLevel ?? 'info';
  if (options.prettyLogs ?? prettyByDefault()) return pino({ level, base: null }, lineStream(2, colourWanted()));
  return pino({ level, base: null }, pino.destination({ dest: 2, sync: false }));
}

// A logger that logs nothing, without pino (src/silent-logger.ts).
export { silentLogger } from './silent-logger.js';
