// The audit's HTTP body, read compactly. A report of millions of processed
// ids parsed by JSON.parse costs ~50 bytes of heap per id on top of the
// body; here the `processed`, `sent` and `acknowledged` lists stay in the body's bytes, and
// only where each item starts and ends is kept (8 bytes an item). An item
// becomes a value when it is read (`at(i)`), and is garbage again at once.
// The other fields are small and parsed as usual.
import type { ItemList } from './types.js';
import { AuditInputError } from './input-error.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** A JSON array's items as spans of the body; each parsed when read. */
export class JsonSpanList implements ItemList<unknown> {
  private spans = new Uint32Array(1024);
  /** 1 for an item that is a string without escapes (read without JSON.parse). */
  private plain = new Uint8Array(512);
  length = 0;

  constructor(
    private readonly body: Buffer,
    /** The field, for errors: `processed`. */
    private readonly field: string,
  ) {}

  push(start: number, end: number, plainString: boolean): void {
    if (this.length === this.plain.length) {
      const grown = new Uint32Array(this.spans.length * 2);
      grown.set(this.spans);
      this.spans = grown;
      const flags = new Uint8Array(this.plain.length * 2);
      flags.set(this.plain);
      this.plain = flags;
    }
    this.spans[this.length * 2] = start;
    this.spans[this.length * 2 + 1] = end;
    this.plain[this.length] = plainString ? 1 : 0;
    this.length++;
  }

  /** A string without escapes: valid as it is, read without JSON.parse. */
  isPlainString(index: number): boolean {
    return this.plain[index] === 1;
  }

  at(index: number): unknown {
    if (!Number.isInteger(index) || index < 0 || index >= this.length) return undefined;
    const start = this.spans[index * 2]!;
    const end = this.spans[index * 2 + 1]!;
    if (this.plain[index] === 1) return this.body.toString('utf8', start + 1, end - 1);
    try {
      return JSON.parse(this.body.toString('utf8', start, end));
    } catch (e) {
      throw new AuditInputError(`${this.field}[${index}]`, `is not JSON: ${(e as Error).message}`);
    }
  }
}

class Scanner {
  pos = 0;
  constructor(readonly b: Buffer) {}

  fail(what: string): never {
    throw new SyntaxError(`${what} at byte ${this.pos}`);
  }

  space(): void {
    while (this.pos < this.b.length && isSpace(this.b[this.pos]!)) this.pos++;
  }

  expect(c: string): void {
    this.space();
    if (this.b[this.pos] !== c.charCodeAt(0)) this.fail(`expected '${c}'`);
    this.pos++;
  }

  /** Past a string starting at pos; whether it had escapes. */
  string(): boolean {
    let escaped = false;
    this.pos++;
    for (;;) {
      if (this.pos >= this.b.length) this.fail('unterminated string');
      const c = this.b[this.pos]!;
      if (c === QUOTE) break;
      if (c === BACKSLASH) {
        escaped = true;
        this.pos++;
      }
      this.pos++;
    }
    this.pos++;
    return escaped;
  }

  /** Past one value (its contents are checked when parsed); whether it was a string without escapes. */
  value(): boolean {
    this.space();
    const c = this.b[this.pos];
    if (c === undefined) this.fail('expected a value');
    if (c === QUOTE) return !this.string();
    if (c === 0x7b || c === 0x5b) {
      let depth = 0;
      do {
        const d = this.b[this.pos];
        if (d === undefined) this.fail('unterminated object or array');
        if (d === QUOTE) {
          this.string();
          continue;
        }
        if (d === 0x7b || d === 0x5b) depth++;
        else if (d === 0x7d || d === 0x5d) depth--;
        this.pos++;
      } while (depth > 0);
      return false;
    }
    const start = this.pos;
    while (this.pos < this.b.length && !isSpace(this.b[this.pos]!) && ![0x2c, 0x5d, 0x7d].includes(this.b[this.pos]!)) this.pos++;
    if (this.pos === start) this.fail('expected a value');
    return false;
  }
}

/**
 * The audit body as an object whose `processed` and `sent` lists (when they
 * are arrays) are JsonSpanLists over `body`. Throws SyntaxError for a body
 * that is not JSON; an item that is not is refused when read (AuditInputError
 * naming it).
 */
export function parseAuditBody(body: Buffer): unknown {
  const s = new Scanner(body);
  s.space();
  if (s.pos === body.length) return undefined;
  if (body[s.pos] !== 0x7b) return JSON.parse(body.toString('utf8'));
  const out: Record<string, unknown> = {};
  // As JSON.parse does: "__proto__" is a field like any other, not the prototype.
  const set = (key: string, value: unknown) => Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  s.pos++;
  s.space();
  if (body[s.pos] === 0x7d) s.pos++;
  else {
    for (;;) {
      s.space();
      if (body[s.pos] !== QUOTE) s.fail('expected a field name');
      const keyStart = s.pos;
      s.string();
      const key = JSON.parse(body.toString('utf8', keyStart, s.pos)) as string;
      s.expect(':');
      s.space();
      if ((key === 'processed' || key === 'sent' || key === 'acknowledged') && body[s.pos] === 0x5b) {
        const list = new JsonSpanList(body, key);
        s.pos++;
        s.space();
        if (body[s.pos] === 0x5d) s.pos++;
        else {
          for (;;) {
            s.space();
            const start = s.pos;
            const plain = s.value();
            list.push(start, s.pos, plain);
            s.space();
            const c = body[s.pos++];
            if (c === 0x5d) break;
            if (c !== 0x2c) s.fail(`expected ',' or ']' in ${key}`);
          }
        }
        set(key, list);
      } else {
        const start = s.pos;
        s.value();
        set(key, JSON.parse(body.toString('utf8', start, s.pos)));
      }
      s.space();
      const c = body[s.pos++];
      if (c === 0x7d) break;
      if (c !== 0x2c) s.fail("expected ',' or '}'");
    }
  }
  s.space();
  if (s.pos < body.length) s.fail('unexpected data after the body');
  return out;
}
