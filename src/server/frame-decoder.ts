// Cuts a TCP byte stream into Kafka frames on their 4-byte size prefix.
// A frame that arrived inside one chunk is returned as a view; one spread
// over several chunks is copied once into a buffer of exactly its size, so
// a stored record batch never pins bytes of the frames around it.

export class FrameTooLargeError extends Error {
  override name = 'FrameTooLargeError';
}

export class FrameDecoder {
  private chunks: Buffer[] = [];
  private buffered_ = 0;

  constructor(private readonly maxFrameSize: number) {}

  /** Bytes received but not yet returned as a frame. */
  get buffered(): number {
    return this.buffered_;
  }

  /** Feeds bytes in; returns the frames (without their size prefix) completed by them. */
  push(chunk: Buffer): Buffer[] {
    this.chunks.push(chunk);
    this.buffered_ += chunk.length;
    const frames: Buffer[] = [];
    while (this.buffered_ >= 4) {
      const size = this.peekSize();
      if (size < 0 || size > this.maxFrameSize) {
        throw new FrameTooLargeError(`frame of ${size} bytes is beyond the limit of ${this.maxFrameSize}`);
      }
      if (this.buffered_ < 4 + size) break;
      frames.push(this.take(4 + size).subarray(4));
    }
    return frames;
  }

  private peekSize(): number {
    const first = this.chunks[0]!;
    if (first.length >= 4) return first.readInt32BE(0);
    const head = Buffer.alloc(4);
    let at = 0;
    for (const c of this.chunks) {
      at += c.copy(head, at, 0, Math.min(c.length, 4 - at));
      if (at === 4) break;
    }
    return head.readInt32BE(0);
  }

  /** Removes the next n buffered bytes: a view when they sit in one chunk, else an exact copy. */
  private take(n: number): Buffer {
    const first = this.chunks[0]!;
    if (first.length >= n) {
      if (first.length === n) this.chunks.shift();
      else this.chunks[0] = first.subarray(n);
      this.buffered_ -= n;
      return first.subarray(0, n);
    }
    const out = Buffer.allocUnsafeSlow(n);
    let at = 0;
    while (at < n) {
      const c = this.chunks[0]!;
      const used = Math.min(c.length, n - at);
      c.copy(out, at, 0, used);
      at += used;
      if (used === c.length) this.chunks.shift();
      else this.chunks[0] = c.subarray(used);
    }
    this.buffered_ -= n;
    return out;
  }
}
