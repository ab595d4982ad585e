// A wall clock that a test can move forward: timers run on real time as
// usual, and skip(ms) jumps the clock, running every timer that falls due on
// the way, in time order. Stories whose cause is a long wait (a transaction
// timeout, a broker away for 5 s) play out in milliseconds, while clients and
// the rest of the cluster keep their real-time behaviour.
import type { Clock, Timer } from '../../src/broker/clock.js';

interface Pending {
  at: number;
  seq: number;
  fn: () => void;
  real: NodeJS.Timeout;
}

export class SkipClock implements Clock {
  private offset = 0;
  private seq = 0;
  private readonly pending = new Set<Pending>();

  now(): number {
    return Date.now() + this.offset;
  }

  setTimer(ms: number, fn: () => void): Timer {
    const p: Pending = { at: this.now() + Math.max(0, ms), seq: this.seq++, fn, real: undefined as unknown as NodeJS.Timeout };
    this.arm(p);
    this.pending.add(p);
    return { cancel: () => this.drop(p) };
  }

  /** Moves the clock ms forward, running the timers that fall due, earliest first. */
  skip(ms: number): void {
    this.offset += ms;
    const due = [...this.pending].filter((p) => p.at <= this.now()).sort((a, b) => a.at - b.at || a.seq - b.seq);
    for (const p of due) this.run(p);
    for (const p of this.pending) this.arm(p); // the rest: sooner in real time now
  }

  private arm(p: Pending): void {
    clearTimeout(p.real);
    p.real = setTimeout(() => this.run(p), Math.max(0, p.at - this.now()));
    p.real.unref();
  }

  private run(p: Pending): void {
    if (!this.pending.has(p)) return;
    this.drop(p);
    p.fn();
  }

  private drop(p: Pending): void {
    clearTimeout(p.real);
    this.pending.delete(p);
  }
}
