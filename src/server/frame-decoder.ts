// Cuts a TCP byte stream into Kafka frames on their 4-byte size prefix,
// without copying a frame that arrived whole in one chunk.

export class FrameTooLargeError extends Error {
  override name = 'FrameTooLargeError';
}

export class FrameDecoder {
  private chunks: Buffer[] = [];
  private buffered = 0;

  constructor(private readonly maxFrameSize: number) {}

  /** Feeds bytes in; returns the frames (without their size prefix) completed by them. */
  push(chunk: Buffer): Buffer[] {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    const frames: Buffer[] = [];
    for (;;) {
      if (this.buffered < 4) break;
      const head = this.chunks[0]!.length >= 4 ? this.chunks[0]! : this.coalesce();
      const size = head.readInt32BE(0);
      if (size < 0 || size > this.maxFrameSize) {
        throw new FrameTooLargeError(`frame of ${size} bytes is beyond the limit of ${this.maxFrameSize}`);
      }
      if (this.buffered < 4 + size) break;
      const first = this.chunks[0]!.length >= 4 + size ? this.chunks[0]! : this.coalesce();
      frames.push(first.subarray(4, 4 + size));
      this.consume(4 + size);
    }
    return frames;
  }

  private coalesce(): Buffer {
    const all = Buffer.concat(this.chunks, this.buffered);
    this.chunks = [all];
    return all;
  }

  private consume(n: number): void {
    const first = this.chunks[0]!;
    if (first.length === n) this.chunks.shift();
    else this.chunks[0] = first.subarray(n);
    this.buffered -= n;
  }
}
