// Log lines for people: pino's JSON turned into one line per event,
//   12:04:05.123Z INFO  chaos  node 1 stopped  seq=3 nodeId=1
// time of day (UTC, as `kafkaesque events` prints it), level, component,
// message, then the other fields as key=value with objects as compact JSON,
// so that a rule or an event stays on its line. Hand-written rather than
// pino-pretty: that one spreads each nested object over many lines, and
// loading it costs start-up time. Colour only when asked (a terminal).
import { writeSync } from 'node:fs';
import type { DestinationStream } from 'pino';

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
const LEVEL_COLOURS: Record<number, string> = { 10: '90', 20: '34', 30: '32', 40: '33', 50: '31', 60: '35' };
/** Shown elsewhere in the line, or noise to a reader. */
const OMITTED = new Set(['level', 'time', 'msg', 'component', 'pid', 'hostname']);

type Paint = (code: string, text: string) => string;
const plain: Paint = (_code, text) => text;
const ansi: Paint = (code, text) => `\u001b[${code}m${text}\u001b[39;22m`;

function valueText(value: unknown): string {
  if (typeof value === 'string') return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  // pino serialises errors as { type, message, stack }: the message is what a reader needs on one line.
  if (value && typeof value === 'object' && 'message' in value && 'stack' in value) return JSON.stringify((value as { message: unknown }).message);
  return JSON.stringify(value) ?? String(value);
}

/**
 * An event's line already says what happened: keep its seq (to find it in
 * `kafkaesque events`) and detail. A rule: what it matches, when, and does.
 */
function compact(entry: Record<string, unknown>): Record<string, unknown> {
  const { event, rule, ...rest } = entry as { event?: Record<string, unknown>; rule?: Record<string, unknown> };
  const out: Record<string, unknown> = { ...rest };
  if (event && typeof event === 'object') Object.assign(out, { seq: event.seq, detail: event.detail });
  else if (event !== undefined) out.event = event;
  if (rule && typeof rule === 'object') Object.assign(out, { match: rule.match, trigger: rule.trigger, action: rule.action });
  else if (rule !== undefined) out.rule = rule;
  return out;
}

/** One pino JSON line as one human line (no newline); a line that is not JSON comes back as it is. */
export function formatLogLine(json: string, colour = false): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.trimEnd();
  }
  const paint = colour ? ansi : plain;
  const level = typeof entry.level === 'number' ? entry.level : 30;
  const time = typeof entry.time === 'number' ? new Date(entry.time).toISOString().slice(11) : '';
  const parts = [paint('2', time), paint(LEVEL_COLOURS[level] ?? '39', (LEVELS[level] ?? String(level)).padEnd(5))];
  if (typeof entry.component === 'string') parts.push(paint('36', entry.component));
  parts.push(String(entry.msg ?? ''));
  const fields = Object.entries(compact(entry))
    .filter(([key, value]) => !OMITTED.has(key) && value !== undefined)
    .map(([key, value]) => `${paint('2', `${key}=`)}${valueText(value)}`);
  return [parts.filter(Boolean).join(' '), ...fields].join('  ');
}

/** A pino destination writing formatted lines to a file descriptor, synchronously so that nothing is lost at exit. */
export function lineStream(fd: number, colour: boolean): DestinationStream {
  return {
    write(chunk: string) {
      // pino writes one JSON line per call; split anyway, in case it ever batches.
      let out = '';
      for (const line of chunk.split('\n')) if (line !== '') out += `${formatLogLine(line, colour)}\n`;
      writeSync(fd, out);
    },
  };
}
