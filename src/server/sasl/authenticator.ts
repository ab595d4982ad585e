// SASL on one connection, as Kafka's SaslServerAuthenticator runs it. Before
// authentication only ApiVersions (before the handshake), SaslHandshake and
// SaslAuthenticate may run; anything else closes the connection. Handshake
// v1 is followed by SaslAuthenticate requests; handshake v0 (kafka-python,
// sarama's default) by raw length-prefixed tokens without Kafka headers.
// A failed authentication is answered with SASL_AUTHENTICATION_FAILED and
// then the connection is closed: nothing else is served on it.
import type { ErrorName } from '../../protocol/errors.js';
import { checkPlain } from './plain.js';
import { ScramServer, scramCredential, type ScramCredential, type ScramMechanism } from './scram.js';

export type SaslMechanism = 'PLAIN' | ScramMechanism;
export const SASL_MECHANISMS: readonly SaslMechanism[] = ['PLAIN', 'SCRAM-SHA-256', 'SCRAM-SHA-512'];

export interface SaslOptions {
  /** user name → password */
  users: Record<string, string>;
  /** Enabled mechanisms; default all three. */
  mechanisms?: SaslMechanism[];
}

/** SASL settings shared by every connection: users and their SCRAM credentials, computed once. */
export class SaslConfig {
  readonly mechanisms: readonly SaslMechanism[];
  readonly passwords: ReadonlyMap<string, string>;
  private readonly scram = new Map<string, ScramCredential>();

  constructor(options: SaslOptions) {
    this.mechanisms = options.mechanisms?.length ? options.mechanisms : SASL_MECHANISMS;
    for (const m of this.mechanisms) if (!SASL_MECHANISMS.includes(m)) throw new Error(`unknown SASL mechanism ${m}; known: ${SASL_MECHANISMS.join(', ')}`);
    this.passwords = new Map(Object.entries(options.users));
    for (const m of this.mechanisms) {
      if (m === 'PLAIN') continue;
      for (const [user, password] of this.passwords) this.scram.set(`${m}:${user}`, scramCredential(m, password));
    }
  }

  scramCredential(mechanism: ScramMechanism, user: string): ScramCredential | undefined {
    return this.scram.get(`${mechanism}:${user}`);
  }
}

export type AuthStep = { ok: true; reply: Buffer; complete: boolean } | { ok: false; error: ErrorName; message: string };

const API_VERSIONS = 18;
const SASL_HANDSHAKE = 17;
const SASL_AUTHENTICATE = 36;

export class SaslAuthenticator {
  private state: 'handshake' | 'authenticate' | 'raw' | 'complete' | 'failed';
  private mechanism: SaslMechanism | null = null;
  private scram: ScramServer | null = null;
  principal: string | null = null;

  constructor(private readonly config: SaslConfig | null) {
    this.state = config ? 'handshake' : 'complete';
  }

  get enabled(): boolean {
    return this.config !== null;
  }

  get authenticated(): boolean {
    return this.state === 'complete';
  }

  /** After a v0 handshake the next frames are raw SASL tokens, not Kafka requests. */
  get expectsRawToken(): boolean {
    return this.state === 'raw';
  }

  /** Whether a request with this api key may run now. */
  allows(apiKey: number): boolean {
    switch (this.state) {
      case 'complete':
        return true;
      case 'handshake':
        return apiKey === API_VERSIONS || apiKey === SASL_HANDSHAKE;
      case 'authenticate':
        return apiKey === SASL_AUTHENTICATE;
      default:
        return false;
    }
  }

  /** SaslHandshake: picks the mechanism; v0 means raw tokens follow. */
  handshake(mechanism: string, version: number): ErrorName {
    if (!this.config || this.state !== 'handshake') return 'ILLEGAL_SASL_STATE';
    if (!this.config.mechanisms.includes(mechanism as SaslMechanism)) return 'UNSUPPORTED_SASL_MECHANISM';
    this.mechanism = mechanism as SaslMechanism;
    if (this.mechanism !== 'PLAIN') {
      const m = this.mechanism;
      this.scram = new ScramServer(m, (user) => this.config!.scramCredential(m, user));
    }
    this.state = version === 0 ? 'raw' : 'authenticate';
    return 'NONE';
  }

  enabledMechanisms(): string[] {
    return [...(this.config?.mechanisms ?? [])];
  }

  /** One client token (SaslAuthenticate's auth_bytes, or a raw frame after handshake v0). */
  authenticate(token: Buffer): AuthStep {
    if (!this.config || (this.state !== 'authenticate' && this.state !== 'raw')) {
      return { ok: false, error: 'ILLEGAL_SASL_STATE', message: 'Unexpected SASL authentication request' };
    }
    if (this.mechanism === 'PLAIN') {
      const r = checkPlain(token, this.config.passwords);
      if (!r.ok) return this.fail(r.error);
      return this.succeed(r.user, Buffer.alloc(0));
    }
    const step = this.scram!.step(token);
    if ('error' in step) return this.fail(step.error);
    return step.done ? this.succeed(step.user, step.reply) : { ok: true, reply: step.reply, complete: false };
  }

  private succeed(user: string, reply: Buffer): AuthStep {
    this.state = 'complete';
    this.principal = user;
    return { ok: true, reply, complete: true };
  }

  private fail(message: string): AuthStep {
    this.state = 'failed';
    return { ok: false, error: 'SASL_AUTHENTICATION_FAILED', message };
  }
}
