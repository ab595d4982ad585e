// A raw Kafka client for protocol-level tests: sends frames (well-formed,
// made with our codec, or any bytes at all) and reads response frames.
import { connect, type Socket } from 'node:net';
import { apiSchemas } from '../../src/protocol/messages/index.js';
import { encodeRequest, responseHeaderVersion } from '../../src/protocol/headers.js';
import { Reader } from '../../src/protocol/primitives.js';
import { FrameDecoder } from '../../src/server/frame-decoder.js';

export class WireClient {
  private readonly frames: Buffer[] = [];
  private waiters: ((f: Buffer | null) => void)[] = [];
  private correlation = 1000;
  closed = false;

  private constructor(readonly socket: Socket) {
    const decoder = new FrameDecoder(1 << 30);
    socket.on('data', (chunk) => {
      for (const f of decoder.push(chunk)) {
        const w = this.waiters.shift();
        if (w) w(f);
        else this.frames.push(f);
      }
    });
    socket.on('close', () => {
      this.closed = true;
      for (const w of this.waiters.splice(0)) w(null);
    });
    socket.on('error', () => {});
  }

  static connect(address: string): Promise<WireClient> {
    const [host, port] = address.split(':');
    return new Promise((resolve, reject) => {
      const s = connect({ host, port: Number(port) }, () => resolve(new WireClient(s)));
      s.once('error', reject);
    });
  }

  /** Next response frame (without size prefix), or null when the connection closed first. */
  nextFrame(timeoutMs = 5000): Promise<Buffer | null> {
    const f = this.frames.shift();
    if (f) return Promise.resolve(f);
    if (this.closed) return Promise.resolve(null);
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`no frame within ${timeoutMs} ms`)), timeoutMs);
      this.waiters.push((frame) => {
        clearTimeout(t);
        resolve(frame);
      });
    });
  }

  /** Resolves once the server has closed the connection. */
  whenClosed(timeoutMs = 5000): Promise<boolean> {
    if (this.closed) return Promise.resolve(true);
    return new Promise((resolve) => {
      const t = setTimeout(() => resolve(false), timeoutMs);
      this.socket.once('close', () => {
        clearTimeout(t);
        resolve(true);
      });
    });
  }

  writeRaw(bytes: Buffer): void {
    this.socket.write(bytes);
  }

  /** Sends a request; returns its correlation id. */
  send(apiKey: number, version: number, body: unknown, clientId: string | null = 'wire-test'): number {
    const correlationId = this.correlation++;
    const payload = encodeRequest(apiKey, version, correlationId, clientId, body);
    const size = Buffer.alloc(4);
    size.writeInt32BE(payload.length);
    this.socket.write(Buffer.concat([size, payload]));
    return correlationId;
  }

  /** Sends a request and decodes its response. */
  async request<T = any>(apiKey: number, version: number, body: unknown): Promise<T> {
    const correlationId = this.send(apiKey, version, body);
    const frame = await this.nextFrame();
    if (!frame) throw new Error('connection closed before the response');
    return decodeResponse(frame, apiKey, version, correlationId) as T;
  }

  close(): void {
    this.socket.destroy();
  }
}

export function decodeResponse(frame: Buffer, apiKey: number, version: number, expectCorrelation?: number): unknown {
  const api = apiSchemas.get(apiKey)!;
  const r = new Reader(frame);
  const correlationId = r.int32();
  if (expectCorrelation !== undefined && correlationId !== expectCorrelation) {
    throw new Error(`response for correlation ${correlationId}, expected ${expectCorrelation}`);
  }
  if (responseHeaderVersion(api, version) >= 1) r.uvarint();
  const body = api.readResponse(r, version);
  if (r.remaining !== 0) throw new Error(`${r.remaining} bytes left after the ${api.name} v${version} response`);
  return body;
}

export function correlationOf(frame: Buffer): number {
  return frame.readInt32BE(0);
}
