// Runs the Java share-group driver (test/clients/java/share/Share.java, the
// KafkaShareConsumer 4.4) and returns its one JSON summary line.
import { existsSync } from 'node:fs';
import { runDriver } from './driver-summary.js';

const classpath = 'test/clients/java/compat/lib/*:test/clients/java/share/classes';

/** Whether the driver is built (scripts/install-test-clients.sh); in CI a missing build is an error. */
export function shareDriverBuilt(): boolean {
  const built = existsSync('test/clients/java/share/classes/Share.class');
  if (!built && process.env.CI) throw new Error('test/clients/java/share is not built: run scripts/install-test-clients.sh');
  return built;
}

export interface ShareSummary {
  ok: boolean;
  /** [member, partition, offset, value, deliveryCount] */
  deliveries: [string, number, number, string, number][];
  effects: string[];
  ackFailures: string[];
  errors: string[];
}

/** Share BOOTSTRAP TOPIC …args, bounded: the driver stops itself at timeoutS, the process is killed 30 s later. */
export async function runShareDriver(bootstrap: string, args: string[], timeoutS = 40): Promise<ShareSummary> {
  const { summary } = await runDriver<ShareSummary>('java', ['-cp', classpath, 'Share', bootstrap, ...args, '--timeout', String(timeoutS)], { timeoutMs: (timeoutS + 30) * 1000, what: 'the share driver' });
  return summary;
}
