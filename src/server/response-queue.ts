// The responses of one connection, written strictly in request order even
// when handlers finish out of order (Fetch long-poll, acks=all Produce,
// JoinGroup waits), and written in one batch per tick: every response that
// is ready when the tick's work is done leaves in a single socket write.
// A pipelining client (librdkafka keeps many Produce requests in flight)
// then costs one write system call per batch instead of one per response,
// and the small chunks a response is made of (size prefix, header, fields)
// are joined into one buffer instead of going through the stream one by one.
// Record batches served by Fetch stay by reference: they are never copied.
import type { Socket } from 'node:net';

/** Chunks below this size are copied into one buffer with their neighbours; larger ones are written by reference. */
const COALESCE_BELOW = 4096;

interface Slot {
  /** undefined while the handler runs; null when no response is written. */
  response?: Buffer[] | null;
  /** Close the connection once this slot's response (if any) has been written. */
  close?: boolean;
}

export class ResponseQueue {
  private readonly slots: Slot[] = [];
  private scheduled = false;
  private stopped = false;

  /**
   * onCloseAfter: called (once) when a slot asks for the connection to end
   * after its response; the queue writes nothing more afterwards.
   */
  constructor(
    private readonly socket: Socket,
    private readonly onCloseAfter: () => void,
  ) {}

  /** Takes a place in request order for a response still being made. */
  reserve(): Slot {
    const slot: Slot = {};
    this.slots.push(slot);
    return slot;
  }

  /** Fills a reserved place: a framed response (size prefix included), or null for none; close ends the connection after it. */
  complete(slot: Slot, response: Buffer[] | null, close = false): void {
    slot.response = response;
    slot.close = close;
    this.schedule();
  }

  /** A response (or a close) in the next place, for answers made at once. */
  push(response: Buffer[] | null, close = false): void {
    this.complete(this.reserve(), response, close);
  }

  /** Nothing more is written (the connection is closing). */
  stop(): void {
    this.stopped = true;
    this.slots.length = 0;
  }

  private schedule(): void {
    if (this.scheduled || this.stopped) return;
    this.scheduled = true;
    // After the current callback and its microtasks: responses finished by
    // the same batch of requests (or the same promise resolution) go together.
    process.nextTick(this.writeReady);
  }

  private readonly writeReady = (): void => {
    this.scheduled = false;
    if (this.stopped || this.socket.destroyed) return;
    const out: Buffer[] = [];
    let small: Buffer[] = [];
    let smallBytes = 0;
    const joinSmall = () => {
      if (small.length === 0) return;
      out.push(small.length === 1 ? small[0]! : Buffer.concat(small, smallBytes));
      small = [];
      smallBytes = 0;
    };
    let closeAfter = false;
    let done = 0;
    for (; done < this.slots.length; done++) {
      const slot = this.slots[done]!;
      if (slot.response === undefined) break;
      for (const chunk of slot.response ?? []) {
        if (chunk.length < COALESCE_BELOW) {
          small.push(chunk);
          smallBytes += chunk.length;
        } else {
          joinSmall();
          out.push(chunk);
        }
      }
      if (slot.close) {
        closeAfter = true;
        done++;
        break;
      }
    }
    joinSmall();
    this.slots.splice(0, done);
    if (out.length === 1) this.socket.write(out[0]!);
    else if (out.length > 1) {
      this.socket.cork();
      for (const chunk of out) this.socket.write(chunk);
      this.socket.uncork();
    }
    if (closeAfter) {
      this.stop();
      this.onCloseAfter();
    }
  };
}
