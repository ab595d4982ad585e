#!/usr/bin/env node
// Derives the ApiVersions ranges one Kafka version's broker advertises from
// that version's message schemas (Kafka's own
// clients/src/main/resources/common/message/*Request.json), as its
// ApiVersionManager computes them with default configs:
//
//   node scripts/kafka-version-ranges.mjs <message dir> <listener>
//
// <listener> is `zkBroker` for a ZooKeeper-mode broker (2.x) or `broker` for
// a KRaft broker (3.x, 4.x). The rules, each from Kafka's source:
// - an API is served on a listener when its `listeners` names it
//   (ApiKeys.apisForListener);
// - a `latestVersionUnstable` API does not advertise its last version, and
//   an API left with no version is not advertised at all
//   (ApiKeys.toApiVersion, unstable.api.versions.enable=false);
// - GetTelemetrySubscriptions and PushTelemetry are left out without a
//   telemetry reporter (ApiVersionsResponse.filterApis, 3.7+);
// - 4.x advertises Produce from v0 though it serves only v3+ (KAFKA-18659,
//   ApiKeys.PRODUCE_API_VERSIONS_RESPONSE_MIN_VERSION); the profile module
//   applies that, the table here holds what the broker serves.
// The output is the body of a ranges table for src/broker/kafka-version/;
// no test or build step runs this script (it needs a release's whole message
// directory; the repo keeps 4.4.0's in protocol/kafka-4.4/schemas): it records how the committed tables were made.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const [dir, listener] = process.argv.slice(2);
if (!dir || !['zkBroker', 'broker'].includes(listener)) {
  console.error('usage: node scripts/kafka-version-ranges.mjs <message dir> zkBroker|broker');
  process.exit(2);
}

/**
 * The first JSON value of a file with Kafka's // comments (outside strings).
 * Like Kafka's Jackson reader it ignores what follows that value: 2.8's
 * DescribeProducersRequest.json closes its fields twice.
 */
function readJsonWithComments(file) {
  const text = readFileSync(file, 'utf8');
  let out = '';
  let inString = false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i];
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
      out += c;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else {
      out += c;
      if (c === '{' || c === '[') depth++;
      else if ((c === '}' || c === ']') && --depth === 0) break;
    }
  }
  try {
    return JSON.parse(out);
  } catch (err) {
    throw new Error(`${file}: ${err.message}`);
  }
}

const TELEMETRY = new Set([71, 72]);
const rows = [];
for (const file of readdirSync(dir).filter((f) => f.endsWith('Request.json')).sort()) {
  const spec = readJsonWithComments(join(dir, file));
  if (spec.type !== 'request' || !(spec.listeners ?? []).includes(listener)) continue;
  if (TELEMETRY.has(spec.apiKey) || spec.validVersions === 'none') continue;
  const [lo, hi] = spec.validVersions.includes('-') ? spec.validVersions.split('-').map(Number) : [Number(spec.validVersions), Number(spec.validVersions)];
  const max = spec.latestVersionUnstable ? hi - 1 : hi;
  if (max < lo) continue;
  rows.push({ apiKey: spec.apiKey, name: spec.name.replace(/Request$/, ''), min: lo, max });
}
rows.sort((a, b) => a.apiKey - b.apiKey);
for (const r of rows) console.log(`  [${r.apiKey}, ${r.min}, ${r.max}], // ${r.name}`);
