// Runs the librdkafka client (lib/rdkafka-client.py, confluent_kafka on
// /usr/bin/python3 by default; PYTHON overrides) and returns its JSON result.
// Every run is bounded in time and killed if it overruns.
import { execFileSync, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'rdkafka-client.py');
export const python = process.env.PYTHON ?? '/usr/bin/python3';

/** "confluent_kafka X on librdkafka Y", or null when the client is not installed. */
export function rdkafkaVersion() {
  try {
    return execFileSync(python, ['-c', 'import confluent_kafka as c; print("confluent_kafka %s on librdkafka %s" % (c.version()[0], c.libversion()[0]))'], {
      encoding: 'utf8',
      timeout: 10000,
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return null;
  }
}

/** rdkafka-client.py MODE ...args; resolves its JSON line, rejects on failure or after timeoutMs. */
export function runRdkafka(args, timeoutMs = 90000) {
  return new Promise((resolve, reject) => {
    const child = spawn(python, [script, ...args.map(String)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (err = (err + d).slice(-2000)));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`librdkafka client ${args[0]}: no result within ${timeoutMs} ms`));
    }, timeoutMs);
    child.once('error', (e) => {
      clearTimeout(timer);
      reject(new Error(`librdkafka client: ${e.message}`));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      const line = out.trim().split('\n').pop();
      if (code !== 0 || !line) return reject(new Error(`librdkafka client ${args[0]} exited ${code}: ${err.trim()}`));
      try {
        resolve(JSON.parse(line));
      } catch {
        reject(new Error(`librdkafka client ${args[0]}: not JSON: ${line.slice(0, 200)}`));
      }
    });
  });
}
