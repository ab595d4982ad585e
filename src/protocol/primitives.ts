// Wire primitives of the Kafka protocol: big-endian integers, classic and
// compact (KIP-482) strings, bytes and arrays, unsigned varints and UUIDs.
// The generated codecs in ./messages/ are written against these two classes;
// nothing else in the project reads or writes protocol bytes by hand, except
// record batches (./record-batch.ts).

/** Thrown when a frame does not hold what its schema says: the connection that sent it is closed. */
export class MalformedFrameError extends Error {
  override name = 'MalformedFrameError';
}

const TWO_32 = 4294967296;
const INT64_MAX = 9223372036854775807n;
const INT64_MIN = -9223372036854775808n;
export const ZERO_UUID = '00000000-0000-0000-0000-000000000000';
const EMPTY = Buffer.alloc(0);

/**
 * Reads primitives from a buffer. Every read checks bounds and throws
 * MalformedFrameError instead of reading past the end.
 */
export class Reader {
  constructor(
    readonly buf: Buffer,
    public pos = 0,
    readonly end = buf.length,
  ) {}

  get remaining(): number {
    return this.end - this.pos;
  }

  private need(n: number): void {
    if (n < 0 || this.pos + n > this.end) {
      throw new MalformedFrameError(`frame ends early: need ${n} bytes at ${this.pos}, have ${this.end - this.pos}`);
    }
  }

  bool(): boolean {
    return this.int8() !== 0;
  }

  int8(): number {
    this.need(1);
    return this.buf.readInt8(this.pos++);
  }

  int16(): number {
    this.need(2);
    const v = this.buf.readInt16BE(this.pos);
    this.pos += 2;
    return v;
  }

  uint16(): number {
    this.need(2);
    const v = this.buf.readUInt16BE(this.pos);
    this.pos += 2;
    return v;
  }

  int32(): number {
    this.need(4);
    const v = this.buf.readInt32BE(this.pos);
    this.pos += 4;
    return v;
  }

  /** int64 as a JS number: exact within ±2^53, which covers offsets, ids and timestamps. */
  int64(): number {
    this.need(8);
    const hi = this.buf.readInt32BE(this.pos);
    const lo = this.buf.readUInt32BE(this.pos + 4);
    this.pos += 8;
    return hi * TWO_32 + lo;
  }

  float64(): number {
    this.need(8);
    const v = this.buf.readDoubleBE(this.pos);
    this.pos += 8;
    return v;
  }

  uvarint(): number {
    let value = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      const b = this.uint8();
      value += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) return value;
    }
    throw new MalformedFrameError(`unsigned varint longer than 5 bytes at ${this.pos}`);
  }

  private uint8(): number {
    this.need(1);
    return this.buf[this.pos++]!;
  }

  uuid(): string {
    this.need(16);
    const hex = this.buf.toString('hex', this.pos, this.pos + 16);
    this.pos += 16;
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }

  /** Length of a string/bytes/array: -1 (or compact 0) means null. */
  private length(compact: boolean, wide: boolean): number {
    if (compact) return this.uvarint() - 1;
    return wide ? this.int32() : this.int16();
  }

  nullableString(compact: boolean): string | null {
    const n = this.length(compact, false);
    if (n < 0) return null;
    this.need(n);
    const s = this.buf.toString('utf8', this.pos, this.pos + n);
    this.pos += n;
    return s;
  }

  string(compact: boolean): string {
    const s = this.nullableString(compact);
    if (s === null) throw new MalformedFrameError(`null string where the schema forbids it at ${this.pos}`);
    return s;
  }

  /** Bytes are returned as a view into the frame, never copied. */
  nullableBytes(compact: boolean): Buffer | null {
    const n = this.length(compact, true);
    if (n < 0) return null;
    this.need(n);
    const b = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return b;
  }

  bytes(compact: boolean): Buffer {
    const b = this.nullableBytes(compact);
    if (b === null) throw new MalformedFrameError(`null bytes where the schema forbids it at ${this.pos}`);
    return b;
  }

  nullableArray<T>(compact: boolean, item: (r: Reader) => T): T[] | null {
    const n = this.length(compact, true);
    if (n < 0) return null;
    // Each element takes at least one byte: a count beyond the frame is garbage.
    if (n > this.remaining) throw new MalformedFrameError(`array of ${n} elements in ${this.remaining} bytes`);
    const out = new Array<T>(n);
    for (let i = 0; i < n; i++) out[i] = item(this);
    return out;
  }

  array<T>(compact: boolean, item: (r: Reader) => T): T[] {
    const a = this.nullableArray(compact, item);
    if (a === null) throw new MalformedFrameError(`null array where the schema forbids it at ${this.pos}`);
    return a;
  }

  /** A view of the next n bytes, as a reader of its own (tagged fields). */
  sub(n: number): Reader {
    this.need(n);
    const r = new Reader(this.buf, this.pos, this.pos + n);
    this.pos += n;
    return r;
  }

  skip(n: number): void {
    this.need(n);
    this.pos += n;
  }
}

const SCRATCH_MIN = 1024;
const SCRATCH_MAX = 64 * 1024;
/** Raw blobs at least this large are kept as their own chunk instead of copied. */
const ZERO_COPY_MIN = 512;

/**
 * A bytes field held as several buffers, written one after another as one
 * field without joining them: a Fetch answer's stored batches go out as they
 * are stored, never copied into one buffer.
 */
export class ByteChunks {
  readonly length: number;
  constructor(readonly chunks: readonly Buffer[]) {
    let n = 0;
    for (const c of chunks) n += c.length;
    this.length = n;
  }
}

/**
 * Writes primitives into a list of chunks. Small values go into a scratch
 * buffer; large blobs (record batches) are appended by reference, so a Fetch
 * response is the stored batches plus a few hundred header bytes, never a copy.
 */
export class Writer {
  private readonly chunks: Buffer[] = [];
  private scratch: Buffer;
  private start = 0;
  private pos = 0;
  private flushed = 0;

  constructor(initialSize = SCRATCH_MIN) {
    this.scratch = Buffer.allocUnsafe(initialSize);
  }

  /** Bytes written so far. */
  get length(): number {
    return this.flushed + this.pos - this.start;
  }

  private flushScratch(): void {
    if (this.pos > this.start) {
      this.chunks.push(this.scratch.subarray(this.start, this.pos));
      this.flushed += this.pos - this.start;
      this.start = this.pos;
    }
  }

  private ensure(n: number): void {
    if (this.pos + n <= this.scratch.length) return;
    this.flushScratch();
    const size = Math.max(n, Math.min(SCRATCH_MAX, this.scratch.length * 2));
    this.scratch = Buffer.allocUnsafe(size);
    this.start = this.pos = 0;
  }

  bool(v: boolean): void {
    this.int8(v ? 1 : 0);
  }

  int8(v: number): void {
    this.ensure(1);
    this.scratch.writeInt8(v, this.pos);
    this.pos += 1;
  }

  int16(v: number): void {
    this.ensure(2);
    this.scratch.writeInt16BE(v, this.pos);
    this.pos += 2;
  }

  uint16(v: number): void {
    this.ensure(2);
    this.scratch.writeUInt16BE(v, this.pos);
    this.pos += 2;
  }

  int32(v: number): void {
    this.ensure(4);
    this.scratch.writeInt32BE(v, this.pos);
    this.pos += 4;
  }

  int64(v: number): void {
    this.ensure(8);
    if (Number.isSafeInteger(v)) {
      const hi = Math.floor(v / TWO_32);
      this.scratch.writeInt32BE(hi, this.pos);
      this.scratch.writeUInt32BE(v - hi * TWO_32, this.pos + 4);
    } else {
      // Beyond 2^53 the number is already approximate: clamp to the int64 range.
      let b = BigInt(Math.trunc(v));
      if (b > INT64_MAX) b = INT64_MAX;
      if (b < INT64_MIN) b = INT64_MIN;
      this.scratch.writeBigInt64BE(b, this.pos);
    }
    this.pos += 8;
  }

  float64(v: number): void {
    this.ensure(8);
    this.scratch.writeDoubleBE(v, this.pos);
    this.pos += 8;
  }

  uvarint(v: number): void {
    this.ensure(5);
    while (v >= 0x80) {
      this.scratch[this.pos++] = (v & 0x7f) | 0x80;
      v = Math.floor(v / 128);
    }
    this.scratch[this.pos++] = v;
  }

  uuid(v: string): void {
    const hex = v.replace(/-/g, '');
    if (!/^[0-9a-fA-F]{32}$/.test(hex)) throw new TypeError(`not a UUID: ${v}`);
    this.ensure(16);
    this.scratch.write(hex, this.pos, 'hex');
    this.pos += 16;
  }

  private writeLength(n: number, compact: boolean, wide: boolean): void {
    if (compact) this.uvarint(n + 1);
    else if (wide) this.int32(n);
    else this.int16(n);
  }

  nullableString(v: string | null | undefined, compact: boolean): void {
    if (v == null) return this.writeLength(-1, compact, false);
    const n = Buffer.byteLength(v);
    this.writeLength(n, compact, false);
    this.ensure(n);
    this.scratch.write(v, this.pos, 'utf8');
    this.pos += n;
  }

  string(v: string, compact: boolean): void {
    this.nullableString(v, compact);
  }

  nullableBytes(v: Buffer | ByteChunks | null | undefined, compact: boolean): void {
    if (v == null) return this.writeLength(-1, compact, true);
    this.writeLength(v.length, compact, true);
    if (v instanceof ByteChunks) for (const c of v.chunks) this.raw(c);
    else this.raw(v);
  }

  bytes(v: Buffer | ByteChunks, compact: boolean): void {
    this.nullableBytes(v ?? EMPTY, compact);
  }

  nullableArray<T>(items: readonly T[] | null | undefined, compact: boolean, item: (w: Writer, v: T) => void): void {
    if (items == null) return this.writeLength(-1, compact, true);
    this.writeLength(items.length, compact, true);
    for (const v of items) item(this, v);
  }

  array<T>(items: readonly T[] | undefined, compact: boolean, item: (w: Writer, v: T) => void): void {
    this.nullableArray(items ?? [], compact, item);
  }

  /** Appends bytes; large ones by reference. */
  raw(b: Buffer): void {
    if (b.length >= ZERO_COPY_MIN) {
      this.flushScratch();
      this.chunks.push(b);
      this.flushed += b.length;
      return;
    }
    this.ensure(b.length);
    b.copy(this.scratch, this.pos);
    this.pos += b.length;
  }

  /** Appends everything another writer holds (tagged fields are sized first, then copied in). */
  append(other: Writer): void {
    for (const c of other.finish()) this.raw(c);
  }

  /** The written bytes as chunks, in order, without copying. */
  finish(): Buffer[] {
    this.flushScratch();
    return this.chunks;
  }

  /** The written bytes as one buffer (copies when there are several chunks). */
  toBuffer(): Buffer {
    const chunks = this.finish();
    return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, this.flushed);
  }
}

/** Writes a tagged-field section: entries must come sorted by tag. */
export function writeTaggedFields(w: Writer, fields: readonly [tag: number, body: Writer][]): void {
  w.uvarint(fields.length);
  for (const [tag, body] of fields) {
    w.uvarint(tag);
    w.uvarint(body.length);
    w.append(body);
  }
}

/** Reads a tagged-field section, handing each known tag a reader over its bytes; unknown tags are skipped. */
export function readTaggedFields(r: Reader, onField: (tag: number, body: Reader) => boolean): void {
  const count = r.uvarint();
  for (let i = 0; i < count; i++) {
    const tag = r.uvarint();
    const size = r.uvarint();
    const body = r.sub(size);
    onField(tag, body);
  }
}
