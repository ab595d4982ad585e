// One clock for every timeout in the cluster (acks=all waits, fetch long
// polls, and later sessions and transactions), so tests can move time on
// instead of sleeping.

export interface Timer {
  cancel(): void;
}

export interface Clock {
  now(): number;
  /** Runs fn once after ms milliseconds of this clock's time. */
  setTimer(ms: number, fn: () => void): Timer;
}

/** Wall-clock time and Node timers. Timers are unref'd: they never keep a process alive. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer(ms, fn) {
    const t = setTimeout(fn, Math.max(0, ms));
    t.unref();
    return { cancel: () => clearTimeout(t) };
  },
};

interface Pending {
  at: number;
  seq: number;
  fn: () => void;
  cancelled: boolean;
}

/** A clock that moves only when told to; timers fire in time order during advance(). */
export class ManualClock implements Clock {
  private time: number;
  private seq = 0;
  private pending: Pending[] = [];

  constructor(start = 1_700_000_000_000) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  setTimer(ms: number, fn: () => void): Timer {
    const p: Pending = { at: this.time + Math.max(0, ms), seq: this.seq++, fn, cancelled: false };
    this.pending.push(p);
    return { cancel: () => void (p.cancelled = true) };
  }

  /** Moves time forward by ms, firing each due timer at its own time, in order. */
  advance(ms: number): void {
    const target = this.time + ms;
    for (;;) {
      this.pending = this.pending.filter((p) => !p.cancelled);
      this.pending.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const next = this.pending[0];
      if (!next || next.at > target) break;
      this.pending.shift();
      this.time = next.at;
      next.fn();
    }
    this.time = target;
  }

  get timersPending(): number {
    return this.pending.filter((p) => !p.cancelled).length;
  }
}
