// SCRAM-SHA-256 / SCRAM-SHA-512 on the server side (RFC 5802, RFC 7677),
// as Kafka's ScramSaslServer runs it: client-first, server-first (nonce,
// salt, iterations), client-final (proof), server-final (signature).
import { createHash, createHmac, pbkdf2Sync, randomBytes, timingSafeEqual } from 'node:crypto';
import { SCRAM_DIGEST as DIGEST, credentialFromSaltedPassword, type ScramCredential, type ScramMechanismName } from '../../broker/scram-credentials.js';

export type ScramMechanism = ScramMechanismName;
export type { ScramCredential };

/** Kafka's default for SCRAM credentials created with kafka-configs. */
export const SCRAM_ITERATIONS = 4096;

/** A credential from a password: the client's salting (Hi, PBKDF2), then what the store keeps. */
export function scramCredential(mechanism: ScramMechanism, password: string, salt = randomBytes(16), iterations = SCRAM_ITERATIONS): ScramCredential {
  const { hash, size } = DIGEST[mechanism];
  return credentialFromSaltedPassword(mechanism, salt, iterations, pbkdf2Sync(password, salt, iterations, size, hash));
}

/** "a=b,c=d" into a map; SCRAM attribute values may contain '='. */
function attributes(message: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of message.split(',')) {
    const eq = part.indexOf('=');
    if (eq > 0) out.set(part.slice(0, eq), part.slice(eq + 1));
  }
  return out;
}

/** RFC 5802 saslname: '=2C' is ',' and '=3D' is '='. */
const saslName = (s: string) => s.replace(/=2C/g, ',').replace(/=3D/g, '=');

export type ScramStep = { done: false; reply: Buffer } | { done: true; reply: Buffer; user: string } | { error: string };

/** One SCRAM exchange; `step` takes each client message in turn. */
export class ScramServer {
  private stage: 'first' | 'final' | 'done' = 'first';
  private user = '';
  private nonce = '';
  private clientFirstBare = '';
  private serverFirst = '';
  private credential: ScramCredential | undefined;

  constructor(
    private readonly mechanism: ScramMechanism,
    private readonly lookup: (user: string) => ScramCredential | undefined,
  ) {}

  step(message: Buffer): ScramStep {
    const text = message.toString('utf8');
    if (this.stage === 'first') return this.first(text);
    if (this.stage === 'final') return this.final(text);
    return { error: 'SCRAM exchange already complete' };
  }

  private first(text: string): ScramStep {
    // gs2 header: "n,," (no channel binding), optionally with an authzid.
    const m = /^[ny],(?:a=[^,]*)?,(.*)$/.exec(text);
    if (!m) return { error: 'Invalid SCRAM client first message' };
    this.clientFirstBare = m[1]!;
    const attrs = attributes(this.clientFirstBare);
    const user = attrs.get('n');
    const clientNonce = attrs.get('r');
    if (!user || !clientNonce) return { error: 'Invalid SCRAM client first message' };
    this.user = saslName(user);
    this.credential = this.lookup(this.user);
    // Unknown users get a made-up salt so the exchange fails only at the proof, as Kafka does.
    const salt = this.credential?.salt ?? randomBytes(16);
    const iterations = this.credential?.iterations ?? SCRAM_ITERATIONS;
    this.nonce = clientNonce + randomBytes(18).toString('base64');
    this.serverFirst = `r=${this.nonce},s=${salt.toString('base64')},i=${iterations}`;
    this.stage = 'final';
    return { done: false, reply: Buffer.from(this.serverFirst) };
  }

  private final(text: string): ScramStep {
    this.stage = 'done';
    const attrs = attributes(text);
    const proof = attrs.get('p');
    if (!proof) return { error: 'Invalid SCRAM client final message' };
    // Quirk kept from Kafka's ScramSaslServer: the nonce need only END with
    // the server's. librdkafka 2.0.2 sends client nonce + server nonce here.
    if (!attrs.get('r')?.endsWith(this.nonce)) return { error: 'Invalid client nonce in the final client message.' };
    const withoutProof = text.slice(0, text.lastIndexOf(',p='));
    const authMessage = `${this.clientFirstBare},${this.serverFirst},${withoutProof}`;
    const cred = this.credential;
    const failure = { error: `Authentication failed during authentication due to invalid credentials with SASL mechanism ${this.mechanism}` };
    if (!cred) return failure;
    const { hash } = DIGEST[this.mechanism];
    const clientSignature = createHmac(hash, cred.storedKey).update(authMessage).digest();
    const clientProof = Buffer.from(proof, 'base64');
    if (clientProof.length !== clientSignature.length) return failure;
    const clientKey = Buffer.alloc(clientProof.length);
    for (let i = 0; i < clientKey.length; i++) clientKey[i] = clientProof[i]! ^ clientSignature[i]!;
    const stored = createHash(hash).update(clientKey).digest();
    if (!timingSafeEqual(stored, cred.storedKey)) return failure;
    const serverSignature = createHmac(hash, cred.serverKey).update(authMessage).digest('base64');
    return { done: true, reply: Buffer.from(`v=${serverSignature}`), user: this.user };
  }
}
