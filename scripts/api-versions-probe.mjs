#!/usr/bin/env node
// Asks a broker (a real Kafka, or kafkaesque) what ApiVersions answers, at v3
// and v4, over a plain socket, and prints it as JSON: the API ranges and the
// feature tagged fields (SupportedFeatures, FinalizedFeaturesEpoch,
// FinalizedFeatures; KIP-584). How test/fixtures/kafka-api-versions/ was made:
//
//   node scripts/real-kafka.mjs start --kafka-version 4.4.0 --port 39092 &
//   node scripts/api-versions-probe.mjs 127.0.0.1:39092
//
// Decodes with kafkaesque's own codec (dist/, so `npm run build` first); v4
// differs from v3 only in listing features whose minimum version is 0.
import net from 'node:net';

import { encodeRequest } from '../dist/protocol/headers.js';
import { ApiVersionsApi, apiSchemas } from '../dist/protocol/messages/index.js';
import { Reader } from '../dist/protocol/primitives.js';

const TIMEOUT_MS = 10_000;
const [address] = process.argv.slice(2);
if (!address || !address.includes(':')) {
  console.error('usage: node scripts/api-versions-probe.mjs <host:port>');
  process.exit(2);
}

/** One ApiVersions request on its own connection; resolves to the decoded body. */
function apiVersions(version) {
  const [host, port] = address.split(':');
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port: Number(port) });
    const timer = setTimeout(() => socket.destroy(new Error(`no ApiVersions answer within ${TIMEOUT_MS} ms`)), TIMEOUT_MS);
    let buffered = Buffer.alloc(0);
    socket.on('connect', () => {
      const payload = encodeRequest(18, version, 1, 'api-versions-probe', { clientSoftwareName: 'api-versions-probe', clientSoftwareVersion: '1.0' });
      const size = Buffer.alloc(4);
      size.writeInt32BE(payload.length);
      socket.write(Buffer.concat([size, payload]));
    });
    socket.on('data', (chunk) => {
      buffered = Buffer.concat([buffered, chunk]);
      if (buffered.length < 4 || buffered.length < 4 + buffered.readInt32BE(0)) return;
      clearTimeout(timer);
      socket.destroy();
      // ApiVersions answers with response header v0 at every version (KIP-511).
      const r = new Reader(buffered.subarray(8, 4 + buffered.readInt32BE(0)));
      resolve(ApiVersionsApi.readResponse(r, version));
    });
    socket.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}

const out = {};
for (const version of [3, 4]) {
  const res = await apiVersions(version);
  out[`v${version}`] = {
    errorCode: res.errorCode,
    apiKeys: res.apiKeys.map((a) => [a.apiKey, a.minVersion, a.maxVersion, apiSchemas.get(a.apiKey)?.name ?? null]),
    supportedFeatures: res.supportedFeatures.map((f) => ({ name: f.name, minVersion: f.minVersion, maxVersion: f.maxVersion })),
    finalizedFeaturesEpoch: String(res.finalizedFeaturesEpoch),
    finalizedFeatures: res.finalizedFeatures.map((f) => ({ name: f.name, minVersionLevel: f.minVersionLevel, maxVersionLevel: f.maxVersionLevel })),
    zkMigrationReady: res.zkMigrationReady,
  };
}
console.log(JSON.stringify(out, null, 2));
