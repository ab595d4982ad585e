// The brokers every bench part compares, as spawn specs (lib/broker-process.mjs):
//
//   mock   librdkafka's mock cluster (the reference, bench/.ref/bin/mock-cluster-new)
//   ours   kafkaesque, clients straight to the brokers (start --no-proxy)
//   proxy  kafkaesque through its chaos proxy with no rules (start's default)
//   kfake  franz-go's in-memory fake cluster, a Go process (bench/kfake/, built on
//          first use by lib/kfake.mjs into bench/.ref/bin/)
//   kafka  Apache Kafka 4.1.1, one KRaft node in a JVM (scripts/real-kafka.mjs; jars
//          fetched with Maven on first use); slow to start: give it readyTimeoutMs 120000
//   floor  not a broker: a Node.js process that answers Produce with canned
//          responses and keeps the frames (lib/floor-broker.mjs), to show
//          what Node's sockets cost before any Kafka logic (produce only)
//
// Ratios are x/mock for every target, x/kfake for ours and proxy when kfake
// runs, and proxy/ours for the proxy's cost.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { mockClusterPath } from '../reference.mjs';
import { kfakePath } from './kfake.mjs';

const benchDir = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
export const repoDir = path.dirname(benchDir);
export const oursCli = path.join(repoDir, 'dist', 'cli.js');

/** librdkafka's mock cluster (bench/.ref/bin/mock-cluster-new). */
export function mockSpec(bin = mockClusterPath()) {
  return { name: 'mock', command: bin, args: ['-T', '{lifetime}', '{topicArgs}', '{brokers}'], topics: 'args' };
}

/** franz-go's kfake (bench/kfake/main.go); prints the same JSON ready line as ours. */
export function kfakeSpec(bin = kfakePath()) {
  return {
    name: 'kfake',
    command: bin,
    args: ['-brokers', '{brokers}', '-port', '{port}', '-lifetime', '{lifetime}', '{topicArgs}'],
    topics: 'args',
    topicFlag: '-t',
  };
}

/** A real Kafka node (scripts/real-kafka.mjs start): one broker, whatever {brokers} says. */
export function kafkaSpec() {
  return {
    name: 'kafka',
    command: process.execPath,
    args: [path.join(repoDir, 'scripts', 'real-kafka.mjs'), 'start', '--port', '{port}', '--lifetime', '{lifetime}'],
    topics: 'admin',
    readyTimeoutMs: 120_000,
  };
}

/** kafkaesque's CLI: node dist/cli.js start --json --brokers N --port P [extra...]. */
export function oursSpec(cli = oursCli, extraArgs = [], name = 'ours', nodeArgs = []) {
  return {
    name,
    command: process.execPath,
    args: [...nodeArgs, cli, 'start', '--json', '--brokers', '{brokers}', '--port', '{port}', '{topicArgs}', ...extraArgs],
    topics: 'args',
    topicFlag: '--topic',
    cwd: repoDir,
  };
}

/**
 * The floor (lib/floor-broker.mjs): ApiVersions, Metadata and Produce only,
 * so parts measure it on their produce phases and skip the rest.
 */
export function floorSpec() {
  return {
    name: 'floor',
    command: process.execPath,
    args: [path.join(benchDir, 'lib', 'floor-broker.mjs'), '--brokers', '{brokers}', '--port', '{port}', '--lifetime', '{lifetime}', '{topicArgs}'],
    topics: 'args',
    topicFlag: '--topic',
    produceOnly: true,
  };
}

/**
 * Not a broker: a bare node:http server (lib/bare-http.mjs), the idle part's
 * floor for a Node.js process's memory. Speaks no Kafka: idle part only.
 */
export function bareHttpSpec() {
  return {
    name: 'bare',
    command: process.execPath,
    args: [path.join(benchDir, 'lib', 'bare-http.mjs'), '--port', '{port}', '--lifetime', '{lifetime}'],
    topics: 'none',
    idleOnly: true,
  };
}

/**
 * The targets, as far as they are available: ours and proxy need
 * dist/cli.js (npm run build). `which` picks some of them by name.
 */
export function targetSpecs({ which = ['mock', 'ours', 'proxy'], cli = oursCli, extraArgs = [] } = {}) {
  const specs = [];
  if (which.includes('mock')) specs.push(mockSpec());
  if (which.includes('kfake')) specs.push(kfakeSpec());
  const haveOurs = fs.existsSync(cli);
  if (!haveOurs && (which.includes('ours') || which.includes('proxy'))) {
    process.stderr.write(`${path.relative(process.cwd(), cli)} is missing (npm run build): measuring the mock alone\n`);
  }
  // Warnings only: the broker's log lines are not what is measured.
  if (haveOurs && which.includes('ours')) specs.push(oursSpec(cli, ['--no-proxy', '--log-level', 'warn', ...extraArgs], 'ours'));
  if (haveOurs && which.includes('proxy')) specs.push(oursSpec(cli, ['--log-level', 'warn', ...extraArgs], 'proxy'));
  // The floor imports the codecs from dist/ for its few non-Produce answers.
  if (haveOurs && which.includes('floor')) specs.push(floorSpec());
  if (which.includes('bare')) specs.push(bareHttpSpec());
  return specs;
}

/** Interleaving: a b c, c b a, a b c, ... so no target always follows another's garbage. */
export const orderFor = (specs, i) => (i % 2 ? [...specs].reverse() : specs);
