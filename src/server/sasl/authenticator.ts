// SASL on one connection, as Kafka's SaslServerAuthenticator runs it. Before
// authentication only ApiVersions (before the handshake), SaslHandshake and
// SaslAuthenticate may run; anything else closes the connection. Handshake
// v1 is followed by SaslAuthenticate requests; handshake v0 (kafka-python,
// sarama's default) by raw length-prefixed tokens without Kafka headers.
// A failed authentication is answered with SASL_AUTHENTICATION_FAILED and
// then the connection is closed: nothing else is served on it.
import type { SaslSession, SaslStep } from '../../broker/handlers/handler.js';
import type { ErrorName } from '../../protocol/errors.js';
import { CONTROL_A, parseClientFirstMessage, validateUnsecuredJwt, type OAuthBearerOptions } from './oauthbearer.js';
import { checkPlain } from './plain.js';
import { ScramServer, scramCredential, type ScramCredential, type ScramMechanism } from './scram.js';
import { ScramCredentialStore } from '../../broker/scram-credentials.js';

export type SaslMechanism = 'PLAIN' | ScramMechanism | 'OAUTHBEARER';
export const SASL_MECHANISMS: readonly SaslMechanism[] = ['PLAIN', 'SCRAM-SHA-256', 'SCRAM-SHA-512', 'OAUTHBEARER'];
/** What `users` alone enables: the password mechanisms. */
const PASSWORD_MECHANISMS: readonly SaslMechanism[] = ['PLAIN', 'SCRAM-SHA-256', 'SCRAM-SHA-512'];

export interface SaslOptions {
  /** user name → password, for PLAIN and SCRAM */
  users?: Record<string, string>;
  /** Enabled mechanisms; default PLAIN and both SCRAMs with `users`, and OAUTHBEARER with `oauthbearer`. */
  mechanisms?: SaslMechanism[];
  /** OAUTHBEARER with Kafka's default (unsecured JWT) validator and these options; `{}` for its defaults. */
  oauthbearer?: OAuthBearerOptions;
}

/**
 * SASL settings shared by every connection: the users' PLAIN passwords and
 * the cluster's SCRAM credential store, seeded with the users' passwords for
 * each enabled SCRAM mechanism (as `kafka-storage format --add-scram` would);
 * AlterUserScramCredentials changes the store afterwards.
 */
export class SaslConfig {
  readonly mechanisms: readonly SaslMechanism[];
  readonly passwords: ReadonlyMap<string, string>;
  readonly oauthbearer: OAuthBearerOptions;

  constructor(
    options: SaslOptions,
    private readonly scram: ScramCredentialStore = new ScramCredentialStore(),
  ) {
    const users = options.users ?? {};
    const byDefault = [...(Object.keys(users).length ? PASSWORD_MECHANISMS : []), ...(options.oauthbearer ? (['OAUTHBEARER'] as const) : [])];
    this.mechanisms = options.mechanisms?.length ? options.mechanisms : byDefault;
    for (const m of this.mechanisms) if (!SASL_MECHANISMS.includes(m)) throw new Error(`unknown SASL mechanism ${m}; known: ${SASL_MECHANISMS.join(', ')}`);
    if (this.mechanisms.length === 0) throw new Error('sasl needs users (PLAIN, SCRAM) or oauthbearer (OAUTHBEARER)');
    this.passwords = new Map(Object.entries(users));
    this.oauthbearer = options.oauthbearer ?? {};
    for (const m of this.mechanisms) {
      if (m === 'PLAIN' || m === 'OAUTHBEARER') continue;
      for (const [user, password] of this.passwords) this.scram.set(user, m, scramCredential(m, password));
    }
  }

  scramCredential(mechanism: ScramMechanism, user: string): ScramCredential | undefined {
    return this.scram.get(mechanism, user);
  }
}

/** One step of an exchange; `refused` (OAUTHBEARER) says why a token's error challenge was sent, for the broker's log. */
/** The broker's SaslStep: the contract lives with the handlers that use it. */
export type AuthStep = SaslStep;

const API_VERSIONS = 18;
const SASL_HANDSHAKE = 17;
const SASL_AUTHENTICATE = 36;

export class SaslAuthenticator implements SaslSession {
  private state: 'handshake' | 'authenticate' | 'raw' | 'complete' | 'failed';
  private mechanism: SaslMechanism | null = null;
  private scram: ScramServer | null = null;
  /** OAUTHBEARER: the JSON error sent as a challenge, until the client acknowledges it with 0x01. */
  private oauthError: string | null = null;
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
    if (this.mechanism !== 'PLAIN' && this.mechanism !== 'OAUTHBEARER') {
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
    if (this.mechanism === 'OAUTHBEARER') return this.oauthBearer(token);
    const step = this.scram!.step(token);
    if ('error' in step) return this.fail(step.error);
    return step.done ? this.succeed(step.user, step.reply) : { ok: true, reply: step.reply, complete: false };
  }

  /** OAuthBearerSaslServer.evaluateResponse: a first message, or the client's 0x01 after our error. */
  private oauthBearer(token: Buffer): AuthStep {
    if (this.oauthError !== null && token.length === 1 && token[0] === CONTROL_A) return this.fail(this.oauthError);
    this.oauthError = null;
    const first = parseClientFirstMessage(token);
    // Kafka's SaslServerAuthenticator answers a SaslException with this, not the exception's text.
    if (!first.ok) return this.fail('Authentication failed during authentication due to invalid credentials with SASL mechanism OAUTHBEARER');
    const verdict = validateUnsecuredJwt(first.token, this.config!.oauthbearer, Date.now());
    if (!verdict.ok) {
      this.oauthError = verdict.challenge;
      return { ok: true, reply: Buffer.from(verdict.challenge), complete: false, refused: verdict.reason };
    }
    if (first.authzid && first.authzid !== verdict.principal) {
      return this.fail(`Authentication failed: Client requested an authorization id (${first.authzid}) that is different from the token's principal name (${verdict.principal})`);
    }
    return this.succeed(verdict.principal, Buffer.alloc(0));
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
