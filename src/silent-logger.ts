// The logger of a library run that logs nothing (logLevel 'silent', the
// default): the methods kafkaesque calls, doing nothing, so that a start that
// logs nothing does not load pino (~20 ms and a dozen files at every import).
import type { Logger } from 'pino';

const noop = (): void => {};

/** A do-nothing stand-in for pino({ level: 'silent' }): every level method, child() of itself. */
export const silentLogger: Logger = (() => {
  const log = {
    level: 'silent',
    levelVal: Infinity,
    silent: noop,
    fatal: noop,
    error: noop,
    warn: noop,
    info: noop,
    debug: noop,
    trace: noop,
    isLevelEnabled: () => false,
    child: () => log,
    flush: noop,
  };
  return log as unknown as Logger;
})();

/** The logger a start uses: the caller's, none when silent, else pino's (loaded then). */
export async function startLogger(options: { logger?: Logger; logLevel: string; prettyLogs?: boolean }): Promise<Logger> {
  if (options.logger) return options.logger;
  if (options.logLevel === 'silent') return silentLogger;
  const { createLogger } = await import('./logger.js');
  return createLogger({ logLevel: options.logLevel, prettyLogs: options.prettyLogs });
}
