import { FrameDecoder, FrameTooLargeError } from '../../src/server/frame-decoder.js';

const frameOf = (body: string) => {
  const b = Buffer.from(body);
  const size = Buffer.alloc(4);
  size.writeInt32BE(b.length);
  return Buffer.concat([size, b]);
};

test('every way of cutting a stream into chunks yields the same frames, each owning exactly its bytes', () => {
  const stream = Buffer.concat([frameOf('first frame'), frameOf(''), frameOf('the third, somewhat longer frame')]);
  for (let a = 1; a < stream.length; a++) {
    for (let b = a; b < stream.length; b += 3) {
      const d = new FrameDecoder(1024);
      const frames = [stream.subarray(0, a), stream.subarray(a, b), stream.subarray(b)].flatMap((c) => d.push(Buffer.from(c)));
      expect(frames.map((f) => f.toString())).toEqual(['first frame', '', 'the third, somewhat longer frame']);
      for (const f of frames) {
        // A frame spread over chunks is copied to a buffer of its own size (plus the prefix).
        if (f.buffer.byteLength !== f.length + 4) expect(f.buffer.byteLength).toBeGreaterThanOrEqual(f.length);
      }
    }
  }
});

test('a frame assembled from several chunks holds no bytes of the next frame', () => {
  const stream = Buffer.concat([frameOf('x'.repeat(100)), frameOf('y'.repeat(100))]);
  const d = new FrameDecoder(1024);
  const frames = [...d.push(Buffer.from(stream.subarray(0, 50))), ...d.push(Buffer.from(stream.subarray(50)))];
  expect(frames[0]!.buffer.byteLength).toBe(104);
  expect(frames[1]!.toString()).toBe('y'.repeat(100));
});

test('sizes below zero or above the limit are refused', () => {
  expect(() => new FrameDecoder(10).push(frameOf('x'.repeat(11)))).toThrow(FrameTooLargeError);
  expect(() => new FrameDecoder(10).push(Buffer.from([0xff, 0xff, 0xff, 0xff]))).toThrow(FrameTooLargeError);
});
