// The client captures (test/fixtures/captures/, five real clients' frames)
// replayed to both brokers: each capture's request frames, byte for byte as
// the client sent them, in order, on one connection; each answer decoded at
// the request's version and compared like any other step. Ids the original
// broker handed out (member ids, producer ids) are stale on both sides, so
// both answer them alike. A request a profile does not serve closes the
// connection on both (recorded as such); the replay goes on on a new one.
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { apiSchemas, ApiKey } from '../../src/protocol/messages/index.js';
import { readHeader } from '../../src/protocol/headers.js';
import { Reader } from '../../src/protocol/primitives.js';
import { captureFiles, capturesDir } from '../support/captures.js';
import { decodeResponse } from '../support/wire-client.js';
import type { Sequence } from './sequences.js';

interface CaptureLine {
  dir: 'request' | 'response';
  apiKey: number;
  apiName: string;
  apiVersion: number;
  hex: string;
}

/** A captured request frame (size prefix included) decoded with our codec. */
function requestBody<T>(frame: Buffer, apiKey: number, version: number): T {
  const api = apiSchemas.get(apiKey)!;
  const r = new Reader(frame.subarray(4));
  readHeader(r, api, version);
  return api.readRequest(r, version) as T;
}

/** A Produce frame carrying a magic 0 or 1 message set (byte 16 of a message set entry: offset, size, crc, magic). */
function oldMessageFormat(frame: Buffer, version: number): boolean {
  const req = requestBody<{ topicData: { partitionData: { records: Buffer | null }[] }[] }>(frame, ApiKey.Produce, version);
  return req.topicData.some((t) => t.partitionData.some((p) => p.records !== null && p.records.length > 16 && p.records[16]! < 2));
}

/** Topics a Metadata request asked to auto-create and its answer said are not there yet. */
function autoCreating(frame: Buffer, version: number, answer: any): string[] {
  const req = requestBody<{ topics: { name: string | null }[] | null; allowAutoTopicCreation: boolean }>(frame, ApiKey.Metadata, version);
  if (!req.topics || (version >= 4 && !req.allowAutoTopicCreation)) return [];
  return answer.topics.filter((t: any) => t.errorCode === 3 || t.errorCode === 5).map((t: any) => t.name as string);
}

const REPLY_TIMEOUT_MS = 30_000;

function captureSequence(file: string): Sequence {
  const client = file.replace(/\.jsonl$/, '');
  return {
    id: `capture-${client}`,
    title: `Capture replay: ${client}`,
    rules: `every request of test/fixtures/captures/${file}, as the client sent it (but Produce with magic 0/1 message sets)`,
    async run(s) {
      const lines = readFileSync(path.join(capturesDir, file), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as CaptureLine);
      let c = await s.connection();
      for (const [i, line] of lines.entries()) {
        if (line.dir !== 'request') continue;
        const frame = Buffer.from(line.hex, 'hex');
        const label = `#${i} ${line.apiName} v${line.apiVersion}`;
        // Magic 0/1 message sets are left out: kafkaesque does not take them
        // (docs/unsupported.md), so every offset after them would differ.
        if (line.apiKey === ApiKey.Produce && oldMessageFormat(frame, line.apiVersion)) continue;
        if (line.apiKey === ApiKey.Produce && requestBody<{ acks: number }>(frame, ApiKey.Produce, line.apiVersion).acks === 0) {
          c.writeRaw(frame);
          continue;
        }
        c.writeRaw(frame);
        const reply = await c.nextFrame(REPLY_TIMEOUT_MS);
        if (!reply) {
          s.record(label, line.apiName, line.apiVersion, { closed: true });
          c = await s.connection();
          continue;
        }
        const answer = decodeResponse(reply, line.apiKey, line.apiVersion, frame.readInt32BE(8));
        s.record(label, line.apiName, line.apiVersion, answer);
        // A real broker creates an auto-created topic a few ms later (through
        // its controller), kafkaesque at once; the client this was captured
        // from waited for it, so the replay does too.
        if (line.apiKey === ApiKey.Metadata) for (const topic of autoCreating(frame, line.apiVersion, answer)) await s.settleTopic(topic);
      }
    },
  };
}

export const CAPTURE_SEQUENCES: readonly Sequence[] = captureFiles.map(captureSequence);
