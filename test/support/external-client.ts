// Runs one of the non-JavaScript client scripts in test/clients/ (no shell,
// bounded in time) and returns its one-line JSON summary.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface ClientSummary {
  ok: boolean;
  errors: string[];
  [key: string]: unknown;
}

/** Debian's python, where python3-confluent-kafka and python3-kafka are installed. */
export const debianPython = '/usr/bin/python3';

export function requireTool(path: string, hint = 'run scripts/install-test-clients.sh'): void {
  if (!existsSync(path)) throw new Error(`${path} is missing: ${hint}`);
}

export async function runClient(command: string, args: string[], timeoutS = 40): Promise<ClientSummary> {
  try {
    const { stdout } = await run(command, [...args, '--timeout', String(timeoutS)], { timeout: (timeoutS + 20) * 1000, killSignal: 'SIGKILL' });
    return JSON.parse(stdout.trim().split('\n').at(-1)!) as ClientSummary;
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    const last = e.stdout?.trim().split('\n').at(-1);
    if (last?.startsWith('{')) return JSON.parse(last) as ClientSummary;
    throw new Error(`${command} ${args.join(' ')} failed: ${e.message}\n${e.stderr ?? ''}`);
  }
}
