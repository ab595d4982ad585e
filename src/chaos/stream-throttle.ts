// A byte stream held to a bandwidth: the throttle action's connection scope
// (Toxiproxy's "bandwidth" toxic). Bytes go in as they come (whole frames,
// cut-through chunks, paced pieces) and leave in order, no faster than
// bytesPerSecond: a token bucket that fills at that rate. It saves up at
// most one piece (PIECE_MS worth of bytes, at least one byte) while the
// stream is idle, so a burst after a pause is short; while bytes wait it is
// not capped, so a late timer is made up for and the rate stays exact over
// time. A timer runs only while bytes wait, one at a time. release() writes
// everything still waiting at once and lets later bytes straight through:
// removing the rule never loses a byte.
import type { Clock, Timer } from '../broker/clock.js';

/** Waiting bytes leave in pieces of about this many milliseconds' worth. */
export const PIECE_MS = 10;

export class StreamThrottle {
  /** Bytes written per piece, and the most an idle stream saves up. */
  readonly piece: number;
  private readonly waiting: Buffer[] = [];
  private waitingBytes = 0;
  private tokens = 0;
  private filledAt: number;
  private timer: Timer | null = null;
  private released = false;

  constructor(
    private readonly clock: Clock,
    readonly bytesPerSecond: number,
    /** Where bytes go when their time comes. */
    private readonly sink: (bytes: Buffer) => void,
    /** Called when the last waiting byte has gone. */
    private readonly onDrained: () => void = () => {},
  ) {
    if (!(bytesPerSecond > 0)) throw new RangeError(`bytesPerSecond must be positive, got ${bytesPerSecond}`);
    this.piece = Math.max(1, Math.floor((bytesPerSecond * PIECE_MS) / 1000));
    this.filledAt = clock.now();
  }

  /** Bytes written in but not yet out. */
  get pending(): number {
    return this.waitingBytes;
  }

  /** Whether a timer is running (only while bytes wait). */
  get timing(): boolean {
    return this.timer !== null;
  }

  write(bytes: Buffer): void {
    if (this.released) return this.sink(bytes);
    if (bytes.length === 0) return;
    if (this.waitingBytes === 0) this.fill(true);
    this.waiting.push(bytes);
    this.waitingBytes += bytes.length;
    // A running timer means the bucket is short already: the new bytes queue behind.
    if (!this.timer) this.pump();
  }

  /** Writes everything waiting now, in order, and lets later bytes straight through. */
  release(): void {
    if (this.released) return;
    this.released = true;
    this.timer?.cancel();
    this.timer = null;
    const rest = this.take(this.waitingBytes);
    if (rest) this.sink(rest);
    this.onDrained();
  }

  /** Forgets what is waiting (the connection is gone). */
  cancel(): void {
    this.released = true;
    this.timer?.cancel();
    this.timer = null;
    this.waiting.length = 0;
    this.waitingBytes = 0;
  }

  private fill(idle: boolean): void {
    const now = this.clock.now();
    this.tokens += ((now - this.filledAt) * this.bytesPerSecond) / 1000;
    this.filledAt = now;
    if (idle && this.tokens > this.piece) this.tokens = this.piece;
  }

  private pump(): void {
    const n = Math.min(Math.floor(this.tokens), this.waitingBytes);
    if (n > 0) {
      this.tokens -= n;
      this.sink(this.take(n)!);
      if (this.released) return; // the sink released us (the rule went meanwhile)
    }
    if (this.waitingBytes === 0) return this.onDrained();
    const want = Math.min(this.piece, this.waitingBytes);
    const ms = Math.max(1, Math.ceil(((want - this.tokens) * 1000) / this.bytesPerSecond));
    this.timer = this.clock.setTimer(ms, () => {
      this.timer = null;
      this.fill(false);
      this.pump();
    });
  }

  /** The first n waiting bytes as one buffer (null when none wait). */
  private take(n: number): Buffer | null {
    if (n <= 0) return null;
    this.waitingBytes -= n;
    const head = this.waiting[0]!;
    if (head.length === n) return this.waiting.shift()!;
    if (head.length > n) {
      this.waiting[0] = head.subarray(n);
      return head.subarray(0, n);
    }
    const parts: Buffer[] = [];
    let left = n;
    while (left > 0) {
      const b = this.waiting[0]!;
      if (b.length <= left) {
        parts.push(this.waiting.shift()!);
        left -= b.length;
      } else {
        parts.push(b.subarray(0, left));
        this.waiting[0] = b.subarray(left);
        left = 0;
      }
    }
    return Buffer.concat(parts, n);
  }
}
