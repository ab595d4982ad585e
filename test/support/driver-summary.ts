// A client driver (Java, Python) as a child process that prints one JSON
// summary as its last stdout line: run it bounded, return that line parsed and
// the driver's stderr.
import { spawn } from 'node:child_process';

export function runDriver<T>(command: string, args: string[], { timeoutMs, what }: { timeoutMs: number; what: string }): Promise<{ summary: T; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], timeout: timeoutMs });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', () => {
      const last = out.trim().split('\n').pop();
      if (!last) return reject(new Error(`no summary from ${what}: ${err.slice(-2000)}`));
      resolve({ summary: JSON.parse(last) as T, stderr: err });
    });
  });
}
