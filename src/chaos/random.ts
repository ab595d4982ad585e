// The run's seeded random generator. One seed per run (printed at start);
// every random choice the chaos layer makes (probability triggers, delay
// jitter) comes from it, so the same seed and the same traffic fire the
// same faults. Each rule draws from its own stream, forked from the seed by
// the rule's id, so one rule's traffic never shifts another rule's draws.
import { randomInt } from 'node:crypto';

const UINT32 = 0x1_0000_0000;

/** A fresh seed for a run that was not given one. */
export function randomSeed(): number {
  return randomInt(0, UINT32 - 1);
}

export function isValidSeed(seed: unknown): seed is number {
  return typeof seed === 'number' && Number.isInteger(seed) && seed >= 0 && seed < UINT32;
}

/** FNV-1a over a label, mixed with a seed: the seed of a forked stream. */
function mix(seed: number, label: string): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < label.length; i++) {
    h ^= label.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** sfc32, seeded through splitmix32: small, fast and good enough for fault injection. */
export class SeededRandom {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(readonly seed: number) {
    if (!isValidSeed(seed)) throw new RangeError(`seed must be a whole number from 0 to ${UINT32 - 1}, got ${seed}`);
    let s = seed | 0;
    const splitmix = () => {
      s = (s + 0x9e3779b9) | 0;
      let t = s ^ (s >>> 16);
      t = Math.imul(t, 0x21f0aaad);
      t ^= t >>> 15;
      t = Math.imul(t, 0x735a2d97);
      return (t ^ (t >>> 15)) | 0;
    };
    this.a = splitmix();
    this.b = splitmix();
    this.c = splitmix();
    this.d = splitmix();
    for (let i = 0; i < 12; i++) this.nextUint32();
  }

  nextUint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** A number in [0, 1). */
  next(): number {
    return this.nextUint32() / UINT32;
  }

  /** A whole number from 0 to max, inclusive. */
  int(max: number): number {
    return Math.floor(this.next() * (Math.floor(max) + 1));
  }

  /** An independent stream derived from this generator's seed and a label (e.g. a rule id). */
  fork(label: string): SeededRandom {
    return new SeededRandom(mix(this.seed, label));
  }
}
