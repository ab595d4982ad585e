// The wire captures of five real clients (test/fixtures/captures/, vendored
// from the project's ../shared/kafka-protocol/captures): the golden bytes the
// codec and record-batch tests read. requests.jsonl beside them is the fuzzer's
// digest of the same frames, in another line format, so it is left out here.
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const capturesDir = fileURLToPath(new URL('../fixtures/captures', import.meta.url));

/** The capture files (`<client>.jsonl`), without the fuzzer's requests.jsonl. */
export const captureFiles = readdirSync(capturesDir)
  .filter((f) => f.endsWith('.jsonl') && f !== 'requests.jsonl')
  .sort();
