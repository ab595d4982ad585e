// Runs the Java share-group driver (test/clients/java/share/Share.java, the
// KafkaShareConsumer 4.4) and returns its one JSON summary line.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

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
export function runShareDriver(bootstrap: string, args: string[], timeoutS = 40): Promise<ShareSummary> {
  return new Promise((resolve, reject) => {
    const child = spawn('java', ['-cp', classpath, 'Share', bootstrap, ...args, '--timeout', String(timeoutS)], { stdio: ['ignore', 'pipe', 'pipe'], timeout: (timeoutS + 30) * 1000 });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', () => {
      const last = out.trim().split('\n').pop();
      if (!last) return reject(new Error(`no summary from the share driver: ${err.slice(-2000)}`));
      resolve(JSON.parse(last));
    });
  });
}
