// SASL/OAUTHBEARER (RFC 7628, KIP-255) as a broker runs it with Kafka's
// default validator, OAuthBearerUnsecuredValidatorCallbackHandler: the
// client's first message carries an unsecured JWT ("alg": "none", an empty
// signature) whose claims are checked, in Kafka's order and with its
// messages (OAuthBearerClientInitialResponse, OAuthBearerUnsecuredJws,
// OAuthBearerValidationUtils). A token that fails is answered with RFC
// 7628's JSON error as a challenge; the client acknowledges it with a lone
// 0x01 and the exchange fails with that JSON as the message.

/** The validator's options, as Kafka's JAAS options `unsecuredValidator…` name them. */
export interface OAuthBearerOptions {
  /** The claim holding the principal name (unsecuredValidatorPrincipalClaimName); default `sub`. */
  principalClaimName?: string;
  /** The claim holding the token's scope (unsecuredValidatorScopeClaimName); default `scope`. */
  scopeClaimName?: string;
  /** Scope values every token must carry (unsecuredValidatorRequiredScope); default none. */
  requiredScope?: string[];
  /** Clock skew allowed on `iat` and `exp` (unsecuredValidatorAllowableClockSkewMs); default 0. */
  allowableClockSkewMs?: number;
}

export const CONTROL_A = 0x01;

const SEPARATOR = '\u0001';
const SASLNAME = '(?:[\\x01-\\x2B\\x2D-\\x3C\\x3E-\\x7F]|=2C|=3D)+';
const KVPAIRS = `(?:[A-Za-z]+=[\\x21-\\x7E \\t\\r\\n]+${SEPARATOR})*`;
const CLIENT_FIRST_MESSAGE = new RegExp(`^n,(?:a=(?<authzid>${SASLNAME}))?,${SEPARATOR}(?<kvpairs>${KVPAIRS})${SEPARATOR}$`);
const AUTH = /^(?<scheme>\w+) +(?<token>[-_.a-zA-Z0-9]+)$/;

export type ClientFirstMessage = { ok: true; token: string; authzid: string; extensions: Map<string, string> } | { ok: false; error: string };

/** The client's first message: "n,[a=authzid],^Aauth=Bearer <token>^A[key=value^A]…^A". */
export function parseClientFirstMessage(message: Buffer): ClientFirstMessage {
  const m = CLIENT_FIRST_MESSAGE.exec(message.toString('utf8'));
  if (!m) return { ok: false, error: 'Invalid OAUTHBEARER client first message' };
  const pairs = new Map<string, string>();
  for (const pair of m.groups!.kvpairs!.split(SEPARATOR)) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    pairs.set(pair.slice(0, eq), pair.slice(eq + 1));
  }
  const auth = pairs.get('auth');
  if (auth === undefined) return { ok: false, error: "Invalid OAUTHBEARER client first message: 'auth' not specified" };
  pairs.delete('auth');
  const a = AUTH.exec(auth);
  if (!a) return { ok: false, error: "Invalid OAUTHBEARER client first message: invalid 'auth' format" };
  if (a.groups!.scheme!.toLowerCase() !== 'bearer') return { ok: false, error: `Invalid scheme in OAUTHBEARER client first message: ${a.groups!.scheme}` };
  return { ok: true, token: a.groups!.token!, authzid: m.groups!.authzid ?? '', extensions: pairs };
}

export type TokenVerdict =
  | { ok: true; principal: string }
  /** `challenge` is the JSON error sent to the client; `reason` what the broker logs. */
  | { ok: false; challenge: string; reason: string };

class IllegalToken extends Error {
  constructor(
    message: string,
    readonly failureScope?: string,
  ) {
    super(message);
  }
}

/** Java's `%f`, as Kafka's messages print claim times. */
const javaDouble = (n: number) => n.toFixed(6);

/** Java's List.toString(), which Kafka puts in an insufficient_scope error. */
const javaList = (xs: readonly string[]) => `[${xs.join(', ')}]`;

function decodeJson(part: string): Record<string, unknown> {
  if (!/^[A-Za-z0-9_\-+/=]*$/.test(part)) throw new IllegalToken('malformed Base64 URL encoded value');
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  } catch {
    throw new IllegalToken('malformed JSON');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new IllegalToken('malformed JSON');
  return value as Record<string, unknown>;
}

function numberClaim(claims: Record<string, unknown>, name: string): number | undefined {
  const v = claims[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number') throw new IllegalToken(`The '${name}' claim was not of type Number: ${typeof v === 'string' ? 'String' : 'Object'}`);
  return v;
}

function scopeOf(claims: Record<string, unknown>, name: string): Set<string> {
  const v = claims[name];
  if (typeof v === 'string') return v.trim() ? new Set([v.trim()]) : new Set();
  if (Array.isArray(v)) return new Set(v.map((x) => String(x).trim()).filter(Boolean));
  if (v === undefined || v === null) return new Set();
  throw new IllegalToken(`The '${name}' claim was not of type List: ${typeof v === 'number' ? 'Number' : 'Object'}`);
}

/** Kafka's unsecured validator on a compact JWS, at `nowMs`. */
export function validateUnsecuredJwt(token: string, options: OAuthBearerOptions, nowMs: number): TokenVerdict {
  const principalClaim = options.principalClaimName?.trim() || 'sub';
  const scopeClaim = options.scopeClaimName?.trim() || 'scope';
  const skew = options.allowableClockSkewMs ?? 0;
  try {
    if (token.includes('..')) throw new IllegalToken("Malformed compact serialization contains '..'");
    const parts = token.split('.');
    if (parts.length !== 3) throw new IllegalToken('Unsecured JWS compact serializations must have 3 dot-separated Base64URL-encoded values');
    const header = decodeJson(parts[0]!);
    const claims = decodeJson(parts[1]!);
    if (header.alg !== 'none') throw new IllegalToken("Unsecured JWS must have 'none' for an algorithm");
    if (parts[2] !== '') throw new IllegalToken('Unsecured JWS must not contain a digital signature');
    const scope = scopeOf(claims, scopeClaim);
    const exp = numberClaim(claims, 'exp');
    if (exp === undefined) throw new IllegalToken('No expiration time in JWT');
    const principal = claims[principalClaim];
    if (principal !== undefined && principal !== null && typeof principal !== 'string') throw new IllegalToken(`The '${principalClaim}' claim was not of type String`);
    if (typeof principal !== 'string' || !principal.trim()) throw new IllegalToken(`No principal name in JWT claim: ${principalClaim}`);
    const iat = numberClaim(claims, 'iat');
    if (iat !== undefined && 1000 * iat > nowMs + skew) {
      throw new IllegalToken(`The Issued At value (${javaDouble(iat)} seconds) was after the indicated time (${nowMs} ms) plus allowable clock skew (${skew} ms)`);
    }
    if (nowMs - skew >= 1000 * exp) {
      throw new IllegalToken(`The indicated time (${nowMs} ms) minus allowable clock skew (${skew} ms) was on or after the Expiration Time value (${javaDouble(exp)} seconds)`);
    }
    if (iat !== undefined && exp <= iat) throw new IllegalToken(`The Expiration Time time (${javaDouble(exp)} seconds) was not after the Issued At time (${javaDouble(iat)} seconds)`);
    const required = options.requiredScope ?? [];
    for (const s of required) {
      if (!scope.has(s)) {
        throw new IllegalToken(`The provided scope (${javaList([...scope])}) was missing a required scope (${s}).  All required scope elements: ${javaList(required)}`, javaList(required));
      }
    }
    return { ok: true, principal };
  } catch (err) {
    if (!(err instanceof IllegalToken)) throw err;
    const challenge = err.failureScope !== undefined ? `{"status":"insufficient_scope", "scope":"${err.failureScope}"}` : '{"status":"invalid_token"}';
    return { ok: false, challenge, reason: err.message };
  }
}

/** An unsecured JWT with these claims (give at least `sub` and `exp`), as Kafka's and librdkafka's unsecured login modules make them. */
export function unsecuredJwt(claims: Record<string, unknown>): string {
  const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${b64({ alg: 'none' })}.${b64(claims)}.`;
}
