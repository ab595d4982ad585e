// One client connection through the chaos proxy, and its own connection to
// the broker node behind it. Frames go through as the bytes they are; the
// proxy reads only their fixed header (api key, version, correlation id) to
// keep a slot per request that expects an answer, so that answers reach the
// client strictly in request order whatever the faults do: a held (delayed)
// answer holds back the later ones, and an answer the proxy makes itself
// waits for the broker's answers to earlier requests. Outcomes may also
// rewrite a frame's bytes (rewrite.ts), write it in timed pieces (throttle,
// slice: a frame being written holds back the later ones), or cut the
// connection off both ways until their rule goes (blackhole). Any of these
// on an answer turns cut-through off for it. A throttle per connection
// sits below all that, on the raw bytes each way (stream-throttle.ts), so
// cut-through answers are held to its bandwidth too. Only this file and proxy.ts
// touch sockets; actions return values (actions/action.ts).
import { connect, type Socket } from 'node:net';
import type { Clock, Timer } from '../broker/clock.js';
import type { Logger } from '../logger.js';
import { ApiKey, ProduceApi, SaslHandshakeApi } from '../protocol/messages/index.js';
import { peekRequestHeader, readHeader } from '../protocol/headers.js';
import { Reader } from '../protocol/primitives.js';
import { FrameDecoder } from '../server/frame-decoder.js';
import { FrameDeadline } from '../server/frame-deadline.js';
import { hostAddress } from '../server/principal.js';
import { isTlsSocket } from '../server/tls.js';
import type { ProxiedPeers } from '../server/proxied-peers.js';
import { Fifo } from './fifo.js';
import type { FrameOutcome, Pace, StreamLimit } from './actions/action.js';
import type { ChaosEngine, Decision } from './controller.js';
import { errorResponseBody } from './error-responses.js';
import { responseFrame } from './response-frame.js';
import { ProxiedRequest } from './request.js';
import { rewriteRequest, rewriteResponse } from './rewrite.js';
import { StreamThrottle } from './stream-throttle.js';

export interface ProxyConnectionOptions {
  id: number;
  nodeId: number;
  engine: ChaosEngine;
  clock: Clock;
  /** The broker listener behind this proxy listener. */
  upstream: { host: string; port: number };
  maxRequestSize: number;
  /** A request frame begun by the client must arrive whole within this long (slow clients); 0 or absent = no bound. */
  requestTimeoutMs?: number;
  topicName: (topicId: string) => string | undefined;
  /** Upstream mode (upstream.ts): broker addresses in answers are rewritten to the proxy's. */
  answers?: AnswerRewriter;
  /** Where the broker behind learns who the client is (the in-memory cluster's authorizer). */
  peers?: ProxiedPeers;
  log: Logger;
}

/**
 * Upstream mode's hook on answers: it sees an answer before any rule does,
 * and an answer it wants is never cut through (its bytes may change).
 */
export interface AnswerRewriter {
  /** Whether the answer to this request may carry broker addresses. */
  wants(apiKey: number, apiVersion: number): boolean;
  /**
   * The answer (frame without its size prefix) as the client should see it,
   * also without prefix; a promise while a listener for a newly seen node
   * starts (the answer and those after it wait, in order).
   */
  rewrite(frame: Buffer, apiKey: number, apiVersion: number): Buffer | Promise<Buffer>;
}

/** Answers at least this large may stream through (cut-through); smaller ones are forwarded whole. */
const PASS_THROUGH_MIN_BYTES = 16 * 1024;

interface Slot {
  readonly correlationId: number;
  /** Waiting for the broker's answer. */
  awaiting: boolean;
  /** What becomes of the broker's answer (undefined: delivered as it is). */
  response?: FrameOutcome;
  /** Kept only when the answer is built from the request (error after). */
  request?: ProxiedRequest;
  delayRuleIds?: string[];
  /** Bytes to deliver, size prefix included; null: nothing. */
  frame?: Buffer | null;
  /** Reset the connection once the slot is reached. */
  close?: boolean;
  held: boolean;
  /** A raw SASL token's answer: it carries no correlation id. */
  raw?: boolean;
  /** SaslHandshake v0: the mechanism asked for; raw token exchanges follow a successful answer. */
  saslMechanism?: string;
  /** Write the answer in timed pieces (slice, throttle); `pacing` while they go out. */
  pace?: Pace;
  pacing?: boolean;
  /** Upstream mode: the answer goes through o.answers first. */
  answer?: { apiKey: number; apiVersion: number };
}

interface Outbound {
  wire: Buffer;
  held: boolean;
  pace?: Pace;
  rules?: readonly string[];
  pacing?: boolean;
}

/** A throttle on one direction of the connection's byte stream, kept until its rule goes. */
interface Limit {
  readonly ruleId: string;
  readonly throttle: StreamThrottle;
}

/** Bytes waiting in a throttled direction above which the proxy stops reading that direction's sender. */
const LIMIT_HIGH_WATER = 64 * 1024;

/** The 4-byte size prefix sits right before a frame the decoder returned; use it rather than copy. */
function withPrefix(frame: Buffer): Buffer {
  if (frame.byteOffset >= 4) {
    const full = Buffer.from(frame.buffer, frame.byteOffset - 4, frame.length + 4);
    if (full.readInt32BE(0) === frame.length) return full;
  }
  const out = Buffer.allocUnsafe(frame.length + 4);
  out.writeInt32BE(frame.length, 0);
  frame.copy(out, 4);
  return out;
}

/**
 * Produce with acks=0 gets no answer from a broker; its slot would wait for
 * ever. Read from the bytes without decoding anything: client id (int16
 * length), then from v9 the header's tagged fields and a compact nullable
 * transactional id, from v3 a nullable one, then acks.
 */
export function isAcksZeroProduce(frame: Buffer, version: number): boolean {
  let at = 8;
  const uvarint = () => {
    let v = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      const b = frame[at++];
      if (b === undefined) return -1;
      v |= (b & 0x7f) << shift;
      if (!(b & 0x80)) return v >>> 0;
    }
    return -1;
  };
  if (at + 2 > frame.length) return false;
  const clientIdLength = frame.readInt16BE(at);
  at += 2 + Math.max(0, clientIdLength);
  if (version >= ProduceApi.requestFlexibleMin) {
    if (uvarint() !== 0) return acksByDecoding(frame, version); // header tagged fields: rare, decode properly
    const len = uvarint();
    if (len < 0) return false;
    at += Math.max(0, len - 1);
  } else if (version >= 3) {
    if (at + 2 > frame.length) return false;
    at += 2 + Math.max(0, frame.readInt16BE(at));
  }
  return at + 2 <= frame.length && frame.readInt16BE(at) === 0;
}

function acksByDecoding(frame: Buffer, version: number): boolean {
  try {
    const r = new Reader(frame);
    readHeader(r, ProduceApi, version);
    r.nullableString(true);
    return r.int16() === 0;
  } catch {
    return false;
  }
}

/**
 * After a successful SaslHandshake v0 the client sends raw SASL tokens
 * without Kafka headers (kafka-python, sarama), one answer each: PLAIN is
 * one exchange, SCRAM two, OAUTHBEARER one (and one more when the broker
 * answers the token with an error challenge, which the client acknowledges
 * with 0x01). Other mechanisms are refused by the handshake.
 */
const RAW_SASL_ROUNDS: Readonly<Record<string, number>> = { PLAIN: 1, 'SCRAM-SHA-256': 2, 'SCRAM-SHA-512': 2, OAUTHBEARER: 1 };

/** The mechanism a SaslHandshake v0 request names, if it is one that raw tokens follow. */
function rawSaslMechanism(frame: Buffer): string | undefined {
  try {
    const r = new Reader(frame);
    readHeader(r, SaslHandshakeApi, 0);
    const mechanism = r.string(false);
    return RAW_SASL_ROUNDS[mechanism] ? mechanism : undefined;
  } catch {
    return undefined;
  }
}

function reset(socket: Socket): void {
  try {
    socket.resetAndDestroy();
  } catch {
    socket.destroy();
  }
}

export class ProxyConnection {
  private readonly upstream: Socket;
  private readonly requests: FrameDecoder;
  private readonly responses = new FrameDecoder(0x7fffffff);
  private readonly slots = new Fifo<Slot>();
  private readonly outbound: Outbound[] = [];
  /** Pending holds: cancelling one stops its timer and forgets its rules, without releasing. */
  private readonly holds = new Set<() => void>();
  private readonly log: Logger;
  private closed = false;
  private upstreamEnded = false;
  /** Raw SASL tokens the client sends next (after SaslHandshake v0): passed through, no rules. */
  private rawTokens = 0;
  /** The mechanism of those raw tokens. */
  private rawMechanism: string | undefined;
  /** Cut off by a blackhole rule: nothing is read or written until it goes, then the connection resets. */
  private blackholed = false;
  private readonly deadline: FrameDeadline | null;
  /**
   * Throttles on the byte stream (throttle per connection), per direction,
   * one per rule: bytes pass through each in turn, then to the socket.
   */
  private readonly limits: Record<StreamLimit['direction'], Limit[]> = { request: [], response: [] };

  constructor(
    readonly client: Socket,
    private readonly o: ProxyConnectionOptions,
    private readonly onClosed: (c: ProxyConnection) => void,
  ) {
    this.log = o.log.child({ node: o.nodeId, connection: o.id });
    this.requests = new FrameDecoder(o.maxRequestSize);
    this.deadline = o.requestTimeoutMs ? new FrameDeadline(o.requestTimeoutMs, (ms) => this.reset(`request frame incomplete after ${ms} ms (slow client)`)) : null;
    client.setNoDelay(true);
    this.upstream = connect({ host: o.upstream.host, port: o.upstream.port });
    this.upstream.setNoDelay(true);
    if (o.peers) this.tellBrokerWhoIsHere(o.peers);
    client.on('data', (chunk) => this.onClientData(chunk));
    client.on('error', (err) => this.log.debug({ err: err.message }, 'client socket error'));
    client.on('close', () => this.shutdown());
    this.upstream.on('data', (chunk) => this.onUpstreamData(chunk));
    this.upstream.on('error', (err) => this.log.debug({ err: err.message }, 'broker socket error'));
    this.upstream.on('close', () => this.onUpstreamClosed());
  }

  get id(): number {
    return this.o.id;
  }

  /** Before any request goes up: the broker's authorizer sees the client's address and certificate, not the proxy's (server/proxied-peers.ts). */
  private tellBrokerWhoIsHere(peers: ProxiedPeers): void {
    const client = this.client;
    const peer = { address: hostAddress(client.remoteAddress), certificate: isTlsSocket(client) ? (client.getPeerX509Certificate() ?? null) : null };
    this.upstream.once('connect', () => {
      const port = this.upstream.localPort;
      if (port === undefined) return;
      peers.register(port, peer);
      this.upstream.once('close', () => peers.unregister(port));
    });
  }

  /** Resets the client's connection (RST), as a crashed broker or a `close` fault does. */
  reset(reason: string): void {
    if (this.closed) return;
    this.log.debug({ reason }, 'resetting connection');
    reset(this.client);
    this.shutdown();
  }

  private shutdown(): void {
    if (this.closed) return;
    this.closed = true;
    this.deadline?.cancel();
    this.upstream.destroy();
    if (!this.client.destroyed) this.client.destroy();
    for (const cancel of [...this.holds]) cancel();
    this.slots.clear();
    this.outbound.length = 0;
    this.onClosed(this);
  }

  // ---------- requests: client -> broker ----------

  private onClientData(chunk: Buffer): void {
    if (this.closed || this.blackholed) return;
    let frames: Buffer[];
    try {
      frames = this.requests.push(chunk);
    } catch (err) {
      return this.reset((err as Error).message);
    }
    this.deadline?.update(this.requests.buffered, frames.length);
    this.upstream.cork();
    try {
      for (const frame of frames) {
        if (this.closed) return;
        this.onRequest(frame);
      }
    } finally {
      this.upstream.uncork();
    }
  }

  private onRequest(frame: Buffer): void {
    const wire = withPrefix(frame);
    if (this.rawTokens > 0) {
      this.rawTokens--;
      this.slots.push({ correlationId: -1, awaiting: true, held: false, raw: true });
      return this.sendUpstream(wire);
    }
    const head = peekRequestHeader(frame);
    // Too short for a header: the broker will close the connection; let it.
    if (!head) return this.sendUpstream(wire);
    const answered = !(head.apiKey === ApiKey.Produce && isAcksZeroProduce(frame, head.apiVersion));
    const { engine } = this.o;
    const req = engine.active ? new ProxiedRequest(frame, head.apiKey, head.apiVersion, head.correlationId, this.o.nodeId, this.o.id, this.o.topicName) : null;
    let decision: Decision | null = null;
    try {
      decision = req && engine.onRequest(req);
    } catch (err) {
      // A rule must never take the traffic down: log it and let the request through.
      this.log.error({ err }, 'chaos rules failed on a request; forwarded untouched');
    }
    if (this.closed) return; // a cluster action (stop-node) took this connection down
    // Before this request's bytes go anywhere: a connection throttle applies to them too.
    if (decision?.limits) this.limitStream(decision.limits);
    const mechanism = head.apiKey === ApiKey.SaslHandshake && head.apiVersion === 0 ? rawSaslMechanism(frame) : undefined;
    const sasl = mechanism ? { saslMechanism: mechanism } : {};
    const answer = this.o.answers?.wants(head.apiKey, head.apiVersion) ? { answer: { apiKey: head.apiKey, apiVersion: head.apiVersion } } : {};
    if (!decision) {
      if (answered) this.slots.push({ correlationId: head.correlationId, awaiting: true, held: false, ...sasl, ...answer });
      return this.sendUpstream(wire);
    }
    const { request: rq, response: rs } = decision.outcome;
    const rules = decision.delayRuleIds;
    switch (rq.kind) {
      case 'forward': {
        if (answered) {
          const slot: Slot = { correlationId: head.correlationId, awaiting: true, held: false, ...sasl, ...answer };
          // A slot with a response outcome is never cut through: a rewrite or a replacement needs the whole answer.
          if (rs.kind !== 'forward' || rs.delayMs || rs.rewrite?.length || rs.pace) {
            slot.response = rs;
            slot.delayRuleIds = rules;
            if (rs.kind === 'error' || (rs.kind === 'forward' && rs.rewrite?.length)) slot.request = req!;
          }
          this.slots.push(slot);
        }
        const out = rq.rewrite?.length ? withPrefix(rewriteRequest(frame, head.apiKey, head.apiVersion, rq.rewrite)) : wire;
        return this.sendUpstream(out, rq.delayMs, rules, rq.pace);
      }
      case 'error':
      case 'respond': {
        // acks=0: a broker never answers, and closes the connection when the write fails.
        if (!answered) return this.reset(`acks=0 produce failed by a chaos rule`);
        const slot: Slot = { correlationId: head.correlationId, awaiting: false, held: false, frame: this.answer(rq, req!) };
        this.slots.push(slot);
        if (rq.delayMs) this.holdSlot(slot, rq.delayMs, rules);
        return this.flush();
      }
      case 'drop':
        return;
      case 'close':
        if (rq.delayMs) return this.hold(rq.delayMs, rules, () => this.reset('close fault'));
        return this.reset('close fault');
      case 'blackhole':
        return this.blackhole(rules);
    }
  }

  /**
   * Cuts the connection off both ways: what the client sends is discarded
   * unread, nothing reaches it, nothing more goes to the broker. When a rule
   * that asked for it goes, the connection is reset (a healed partition does
   * not bring TCP state back).
   */
  private blackhole(rules: readonly string[]): void {
    this.blackholed = true;
    this.log.debug({ rules }, 'connection blackholed');
    const lift = () => this.reset('blackhole lifted');
    const registered = this.o.engine.registerHold(rules, lift);
    if (!registered) return lift();
    this.holds.add(() => registered());
  }

  private answer(outcome: FrameOutcome, req: ProxiedRequest): Buffer {
    const body = outcome.kind === 'error' ? errorResponseBody(req.apiKey, req.apiVersion, req.body(), outcome.errorCode) : outcome.kind === 'respond' ? outcome.body : {};
    return responseFrame(req.apiKey, req.apiVersion, req.correlationId, body);
  }

  private sendUpstream(wire: Buffer, delayMs = 0, rules: readonly string[] = [], pace?: Pace): void {
    if (delayMs <= 0 && !pace && this.outbound.length === 0) return this.writeUpstream(wire);
    // A held or paced request holds back the later ones, as a slow TCP stream would.
    const item: Outbound = { wire, held: delayMs > 0, ...(pace ? { pace, rules } : {}) };
    this.outbound.push(item);
    if (item.held) {
      this.hold(delayMs, rules, () => {
        item.held = false;
        this.pumpOutbound();
      });
    } else if (this.outbound.length === 1) this.pumpOutbound();
  }

  private pumpOutbound(): void {
    while (!this.closed && this.outbound.length) {
      const head = this.outbound[0]!;
      if (head.held || head.pacing) return;
      if (head.pace) {
        head.pacing = true;
        return this.writePaced(head.wire, head.pace, head.rules ?? [], (piece) => this.writeUpstream(piece), () => {
          this.outbound.shift();
          this.pumpOutbound();
        });
      }
      this.writeUpstream(this.outbound.shift()!.wire);
    }
  }

  /**
   * Writes a frame's bytes in pieces of pace.bytes, pace.everyMs apart (each
   * piece its own socket write). Removing a rule that asked for it writes
   * the rest at once: nothing in flight is dropped.
   */
  private writePaced(bytes: Buffer, pace: Pace, rules: readonly string[], write: (piece: Buffer) => void, done: () => void): void {
    let at = 0;
    let released = false;
    const step = () => {
      if (this.closed) return;
      const end = released ? bytes.length : Math.min(bytes.length, at + pace.bytes);
      write(bytes.subarray(at, end));
      at = end;
      if (at >= bytes.length) return done();
      this.hold(pace.everyMs, rules, step, () => (released = true));
    };
    step();
  }

  private upstreamBlocked = false;
  private writeUpstream(wire: Buffer): void {
    if (this.closed || this.blackholed) return;
    const limit = this.limits.request[0];
    if (!limit) return this.socketWriteUpstream(wire);
    limit.throttle.write(wire);
    // A throttled link backs up to the sender as a slow one would: stop reading it while much waits.
    if (this.backlog('request') > LIMIT_HIGH_WATER) this.pauseClient();
  }

  private socketWriteUpstream(wire: Buffer): void {
    if (this.closed || this.blackholed) return;
    if (!this.upstream.write(wire) && !this.upstreamBlocked) {
      // Backpressure (a broker reads nothing while a request of this connection is in process): stop reading the client until the broker side drains.
      this.upstreamBlocked = true;
      this.pauseClient();
      this.upstream.once('drain', () => {
        this.upstreamBlocked = false;
        this.resumeClient();
      });
    }
  }

  /**
   * Stops reading the client. A frame it had begun cannot go on arriving, so
   * that is not the client's slowness: its deadline starts again on resume.
   */
  private pauseClient(): void {
    this.client.pause();
    this.deadline?.update(0);
  }

  /** Reads the client again, unless the broker side or a request throttle still holds it back. */
  private resumeClient(): void {
    if (this.closed || this.upstreamBlocked || this.backlog('request') > LIMIT_HIGH_WATER) return;
    this.client.resume();
    this.deadline?.update(this.requests.buffered);
  }

  // ---------- responses: broker -> client ----------

  private onUpstreamData(chunk: Buffer): void {
    if (this.closed || this.blackholed) return;
    if (this.passThrough > 0) {
      const n = Math.min(this.passThrough, chunk.length);
      this.writeClient(n === chunk.length ? chunk : chunk.subarray(0, n));
      this.passThrough -= n;
      if (this.passThrough === 0) this.finishPassThrough();
      if (n === chunk.length) return;
      chunk = chunk.subarray(n);
    }
    if (this.startPassThrough(chunk)) return;
    let frames: Buffer[];
    try {
      frames = this.responses.push(chunk);
    } catch (err) {
      return this.reset(`bad frame from the broker: ${(err as Error).message}`);
    }
    this.client.cork();
    try {
      for (const frame of frames) {
        if (this.closed) return;
        this.onResponse(frame);
      }
    } finally {
      this.client.uncork();
    }
  }

  /** Bytes of the answer now streaming to the client that are still to come. */
  private passThrough = 0;
  private passThroughSlot: Slot | null = null;

  /**
   * Cut-through: a large answer that no rule touches, at the head of the
   * queue, leaves for the client as its bytes arrive, instead of after its
   * last byte (a 1 MiB Fetch answer would otherwise cross the proxy in one
   * store-and-forward step). The slot stays at the head, still awaiting, so
   * nothing else is written to the client in between.
   */
  private startPassThrough(chunk: Buffer): boolean {
    if (this.responses.buffered > 0 || chunk.length < 8) return false;
    const size = chunk.readInt32BE(0);
    if (size < PASS_THROUGH_MIN_BYTES || 4 + size <= chunk.length) return false;
    const head = this.slots.first;
    if (!head || !head.awaiting || head.held || head.raw || head.saslMechanism || head.response || head.answer || head.correlationId !== chunk.readInt32BE(4)) return false;
    this.passThroughSlot = head;
    this.passThrough = 4 + size - chunk.length;
    this.writeClient(chunk);
    return true;
  }

  private finishPassThrough(): void {
    const slot = this.passThroughSlot!;
    this.passThroughSlot = null;
    slot.awaiting = false;
    slot.frame = null; // already delivered
    this.flush();
  }

  private onResponse(frame: Buffer): void {
    const next = this.slots.find((s) => s.awaiting);
    if (next?.raw) {
      next.awaiting = false;
      next.frame = withPrefix(frame);
      // An OAUTHBEARER error challenge: the client's 0x01 comes next, raw too.
      if (this.rawMechanism === 'OAUTHBEARER' && frame.length > 0) this.rawTokens++;
      return this.flush();
    }
    if (frame.length < 4) return this.reset('response too short for a correlation id');
    const correlationId = frame.readInt32BE(0);
    const slot = this.slots.find((s) => s.awaiting && s.correlationId === correlationId);
    if (!slot) {
      this.log.warn({ correlationId }, 'broker answered a request the proxy does not know; dropped');
      return;
    }
    slot.awaiting = false;
    // SaslHandshake v0 accepted (error code right after the v0 header): raw tokens follow.
    if (slot.saslMechanism && frame.length >= 6 && frame.readInt16BE(4) === 0) {
      this.rawMechanism = slot.saslMechanism;
      this.rawTokens = RAW_SASL_ROUNDS[slot.saslMechanism]!;
    }
    if (slot.answer) {
      const out = this.o.answers!.rewrite(frame, slot.answer.apiKey, slot.answer.apiVersion);
      if (out instanceof Promise) {
        // Held until the rewrite is done: later answers wait behind it, in order.
        slot.held = true;
        void out.then(
          (rewritten) => this.settleAnswer(slot, rewritten),
          (err: Error) => this.reset(`cannot rewrite broker addresses: ${err.message}`),
        );
        return;
      }
      frame = out;
    }
    this.settleAnswer(slot, frame);
  }

  /** What the rules decided for the broker's answer to a slot's request, applied. */
  private settleAnswer(slot: Slot, frame: Buffer): void {
    if (this.closed) return;
    slot.held = false;
    const rs = slot.response;
    if (!rs || rs.kind === 'forward') {
      slot.frame = rs?.rewrite?.length ? rewriteResponse(frame, slot.request!.apiKey, slot.request!.apiVersion, rs.rewrite) : withPrefix(frame);
      if (rs?.pace) slot.pace = rs.pace;
    }
    else if (rs.kind === 'error' || rs.kind === 'respond') slot.frame = this.answer(rs, slot.request!);
    else if (rs.kind === 'drop') slot.frame = null;
    else {
      slot.frame = null;
      slot.close = true;
    }
    slot.request = undefined;
    if (rs?.delayMs) this.holdSlot(slot, rs.delayMs, slot.delayRuleIds ?? []);
    this.flush();
  }

  /** Delivers every answer at the head of the queue that is ready, in request order. */
  private flush(): void {
    while (!this.closed && this.slots.length) {
      const slot = this.slots.first!;
      if (slot.awaiting || slot.held || slot.pacing) break;
      if (slot.pace && slot.frame) {
        slot.pacing = true;
        const frame = slot.frame;
        return this.writePaced(frame, slot.pace, slot.delayRuleIds ?? [], (piece) => this.writeClient(piece), () => {
          slot.pacing = false;
          slot.pace = undefined;
          slot.frame = null; // written
          this.flush();
        });
      }
      this.slots.shift();
      if (slot.frame) this.writeClient(slot.frame);
      if (slot.close) return this.reset('drop-response fault');
    }
    this.endIfDone();
  }

  /** The broker closed and every answer owed is out (throttled bytes included): close the client's side after them. */
  private endIfDone(): void {
    if (!this.closed && this.upstreamEnded && this.slots.length === 0 && this.backlog('response') === 0) this.client.destroySoon();
  }

  private clientBlocked = false;
  private writeClient(frame: Buffer): void {
    if (this.blackholed) return;
    const limit = this.limits.response[0];
    if (!limit) return this.socketWriteClient(frame);
    limit.throttle.write(frame);
    if (this.backlog('response') > LIMIT_HIGH_WATER) this.upstream.pause();
  }

  private socketWriteClient(frame: Buffer): void {
    if (this.blackholed) return;
    if (!this.client.write(frame) && !this.clientBlocked) {
      this.clientBlocked = true;
      this.upstream.pause();
      this.client.once('drain', () => {
        this.clientBlocked = false;
        this.resumeUpstream();
      });
    }
  }

  /** Reads the broker again, unless the client side or a response throttle still holds it back. */
  private resumeUpstream(): void {
    if (!this.closed && !this.clientBlocked && this.backlog('response') <= LIMIT_HIGH_WATER) this.upstream.resume();
  }

  // ---------- connection throttles ----------

  /**
   * Starts the throttles a decision asks for, one per rule and direction
   * (a rule firing again on this connection changes nothing). Each lasts
   * until its rule is removed; then what it holds goes at once, in order.
   */
  private limitStream(limits: readonly (StreamLimit & { ruleId: string })[]): void {
    for (const { ruleId, direction, bytesPerSecond } of limits) {
      const chain = this.limits[direction];
      if (chain.some((l) => l.ruleId === ruleId)) continue;
      const limit: Limit = {
        ruleId,
        throttle: new StreamThrottle(this.o.clock, bytesPerSecond, (bytes) => this.afterLimit(direction, limit, bytes), () => this.limitDrained(direction)),
      };
      let unregister = () => {};
      const cancel = () => {
        limit.throttle.cancel();
        unregister();
        this.holds.delete(cancel);
      };
      const registered = this.o.engine.registerHold([ruleId], () => {
        this.holds.delete(cancel);
        unregister();
        limit.throttle.release(); // writes what waits, through the limits after it
        const at = chain.indexOf(limit);
        if (at >= 0) chain.splice(at, 1);
        this.limitDrained(direction);
      });
      if (!registered) continue; // the rule is gone already
      unregister = registered;
      this.holds.add(cancel);
      chain.push(limit);
      this.log.debug({ ruleId, direction, bytesPerSecond }, 'connection throttled');
    }
  }

  /** Bytes a throttle lets go: on to the next throttle that way, or to the socket. */
  private afterLimit(direction: StreamLimit['direction'], limit: Limit, bytes: Buffer): void {
    const chain = this.limits[direction];
    const at = chain.indexOf(limit);
    const next = at >= 0 ? chain[at + 1] : undefined;
    if (next) next.throttle.write(bytes);
    else if (direction === 'request') this.socketWriteUpstream(bytes);
    else this.socketWriteClient(bytes);
  }

  private limitDrained(direction: StreamLimit['direction']): void {
    if (direction === 'request') return this.resumeClient();
    this.resumeUpstream();
    this.endIfDone();
  }

  private backlog(direction: StreamLimit['direction']): number {
    let n = 0;
    for (const l of this.limits[direction]) n += l.throttle.pending;
    return n;
  }

  private onUpstreamClosed(): void {
    if (this.closed) return;
    // The broker closed (bad input, acks=0 failure): answers it will never
    // send are gone, but held ones are still delivered before the close.
    this.upstreamEnded = true;
    this.slots.removeWhere((slot) => slot.awaiting);
    this.outbound.length = 0;
    this.flush();
  }

  // ---------- holds ----------

  private holdSlot(slot: Slot, delayMs: number, rules: readonly string[]): void {
    slot.held = true;
    this.hold(delayMs, rules, () => {
      slot.held = false;
      this.flush();
    });
  }

  /**
   * Runs `then` after delayMs on the cluster clock, or at once when one of
   * the rules that asked for the delay is removed (a held frame is released,
   * never dropped).
   */
  private hold(delayMs: number, rules: readonly string[], then: () => void, onRuleRemoved?: () => void): void {
    let timer: Timer | undefined;
    let unregister = () => {};
    const cancel = () => {
      timer?.cancel();
      unregister();
      this.holds.delete(cancel);
    };
    const release = () => {
      if (!this.holds.has(cancel)) return;
      cancel();
      if (!this.closed) then();
    };
    const registered = this.o.engine.registerHold(rules, () => {
      onRuleRemoved?.();
      release();
    });
    if (!registered) {
      // The rule that asked for the delay is gone.
      onRuleRemoved?.();
      return then();
    }
    unregister = registered;
    this.holds.add(cancel);
    timer = this.o.clock.setTimer(delayMs, release);
  }
}
