#!/usr/bin/env node
// Not a broker: the least a Node.js server process is, a bare node:http
// server on one port, answering "ok". The idle part (bench/idle.mjs)
// measures its RSS beside the brokers' as the floor a Node.js broker's idle
// memory is judged against (issue 21: idle RSS <= a bare HTTP server's + 10 MiB).
//
// Prints a ready line like `kafkaesque start --json` ({"bootstrap": ...}),
// exits on SIGTERM/SIGINT or after --lifetime seconds.
//
//   node bench/lib/bare-http.mjs [--port 0] [--lifetime 600]
import http from 'node:http';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    lifetime: { type: 'string', default: '600' },
    // Accepted so the spec's placeholders fit; a bare server has no brokers.
    brokers: { type: 'string', default: '1' },
  },
});

const server = http.createServer((_req, res) => res.end('ok'));
server.listen(Number(values.port), '127.0.0.1', () => {
  const { port } = server.address();
  process.stdout.write(`${JSON.stringify({ bootstrap: `127.0.0.1:${port}`, pid: process.pid })}\n`);
});
const stop = () => server.close(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
setTimeout(() => process.exit(0), Number(values.lifetime) * 1000).unref();
