// Slow-loris guard: a request frame, once its first byte has arrived, must
// arrive whole within a bound, or the connection is closed. Most frames come
// in one read and never start the clock; a frame spread over reads costs one
// timestamp, and at most one timer per connection is pending at a time (it
// is re-armed for the time left rather than polled).

export class FrameDeadline {
  /** When the frame now arriving started; null when no partial frame is buffered. */
  private since: number | null = null;
  private timer: NodeJS.Timeout | null = null;
  private cancelled = false;

  constructor(
    private readonly timeoutMs: number,
    private readonly expire: (elapsedMs: number) => void,
  ) {}

  /**
   * Call after every read with the bytes buffered towards the next frame and
   * how many frames that read completed. A completed frame means the bytes
   * buffered now belong to a new one, whose clock starts now: a client that
   * pipelines faster than reads align with frames is not slow.
   */
  update(buffered: number, completed = 0): void {
    if (buffered === 0) {
      this.since = null;
      return;
    }
    if (completed > 0) this.since = null;
    if (this.since !== null) return;
    this.since = Date.now();
    if (!this.timer) this.schedule(this.timeoutMs);
  }

  cancel(): void {
    this.cancelled = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(ms: number): void {
    this.timer = setTimeout(() => this.check(), ms);
    this.timer.unref();
  }

  private check(): void {
    this.timer = null;
    if (this.cancelled || this.since === null) return;
    const elapsed = Date.now() - this.since;
    if (elapsed < this.timeoutMs) return this.schedule(this.timeoutMs - elapsed);
    // After a stall of this process (GC, a busy test), timers run before the
    // poll phase reads bytes that arrived meanwhile: judge the client only
    // after those reads, so our own stall is not blamed on it.
    const since = this.since;
    setImmediate(() => {
      if (!this.cancelled && this.since === since) this.expire(Date.now() - since);
    });
  }
}
