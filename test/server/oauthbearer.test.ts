// SASL/OAUTHBEARER's two halves as Kafka's broker runs them with its default
// validator: the client's first message (OAuthBearerClientInitialResponse)
// and the unsecured JWT checks (OAuthBearerUnsecuredJws,
// OAuthBearerValidationUtils), with Kafka's error texts.
import { parseClientFirstMessage, unsecuredJwt, validateUnsecuredJwt } from '../../src/server/sasl/oauthbearer.js';

const NOW = 1_800_000_000_000;
const exp = NOW / 1000 + 3600;
const first = (s: string) => parseClientFirstMessage(Buffer.from(s.replaceAll('^A', '\u0001')));

describe('client first message', () => {
  test('auth=Bearer <token> with an optional authzid and extensions', () => {
    expect(first('n,,^Aauth=Bearer abc.def.^A^A')).toEqual({ ok: true, token: 'abc.def.', authzid: '', extensions: new Map() });
    expect(first('n,a=alice,^Aauth=bearer abc.def.^AtraceId=42^A^A')).toEqual({ ok: true, token: 'abc.def.', authzid: 'alice', extensions: new Map([['traceId', '42']]) });
  });

  test.each([
    ['no GS2 header', 'auth=Bearer x^A^A', 'Invalid OAUTHBEARER client first message'],
    ['no closing separator', 'n,,^Aauth=Bearer x^A', 'Invalid OAUTHBEARER client first message'],
    ['no auth pair', 'n,,^Afoo=bar^A^A', "Invalid OAUTHBEARER client first message: 'auth' not specified"],
    ['no token', 'n,,^Aauth=Bearer^A^A', "Invalid OAUTHBEARER client first message: invalid 'auth' format"],
    ['another scheme', 'n,,^Aauth=Basic abc^A^A', 'Invalid scheme in OAUTHBEARER client first message: Basic'],
  ])('%s is refused', (_what, message, error) => {
    expect(first(message)).toEqual({ ok: false, error });
  });
});

describe('unsecured JWT', () => {
  const check = (token: string, options = {}) => validateUnsecuredJwt(token, options, NOW);
  const invalid = (reason: string) => ({ ok: false, challenge: '{"status":"invalid_token"}', reason });

  test('alg none, no signature, a sub and an exp in the future: the sub is the principal', () => {
    expect(check(unsecuredJwt({ sub: 'alice', exp, iat: NOW / 1000 }))).toEqual({ ok: true, principal: 'alice' });
    expect(check(unsecuredJwt({ client: 'svc', exp }), { principalClaimName: 'client' })).toEqual({ ok: true, principal: 'svc' });
  });

  test.each([
    ['a signature', `${unsecuredJwt({ sub: 'a', exp })}c2ln`, 'Unsecured JWS must not contain a digital signature'],
    ['another algorithm', unsecuredJwt({ sub: 'a', exp }).replace(/^[^.]+/, Buffer.from('{"alg":"HS256"}').toString('base64url')), "Unsecured JWS must have 'none' for an algorithm"],
    ['two parts', 'abc.def', 'Unsecured JWS compact serializations must have 3 dot-separated Base64URL-encoded values'],
    ["'..'", 'abc..', "Malformed compact serialization contains '..'"],
    ['claims that are not JSON', `${Buffer.from('{"alg":"none"}').toString('base64url')}.bm90IGpzb24.`, 'malformed JSON'],
    ['no exp', unsecuredJwt({ sub: 'a' }), 'No expiration time in JWT'],
    ['no sub', unsecuredJwt({ exp }), 'No principal name in JWT claim: sub'],
    ['an expired token', unsecuredJwt({ sub: 'a', exp: NOW / 1000 - 1 }), `The indicated time (${NOW} ms) minus allowable clock skew (0 ms) was on or after the Expiration Time value (${NOW / 1000 - 1}.000000 seconds)`],
    ['an iat in the future', unsecuredJwt({ sub: 'a', exp, iat: NOW / 1000 + 60 }), `The Issued At value (${NOW / 1000 + 60}.000000 seconds) was after the indicated time (${NOW} ms) plus allowable clock skew (0 ms)`],
  ])('%s is refused with invalid_token', (_what, token, reason) => {
    expect(check(token)).toEqual(invalid(reason));
  });

  test('clock skew lets a just-expired token in', () => {
    expect(check(unsecuredJwt({ sub: 'a', exp: NOW / 1000 - 1 }), { allowableClockSkewMs: 5000 })).toEqual({ ok: true, principal: 'a' });
  });

  test('a required scope missing is insufficient_scope, naming the required scope as Java prints a list', () => {
    expect(check(unsecuredJwt({ sub: 'a', exp, scope: ['read', 'write'] }), { requiredScope: ['write'] })).toEqual({ ok: true, principal: 'a' });
    expect(check(unsecuredJwt({ sub: 'a', exp, scope: 'read' }), { requiredScope: ['write', 'admin'] })).toEqual({
      ok: false,
      challenge: '{"status":"insufficient_scope", "scope":"[write, admin]"}',
      reason: 'The provided scope ([read]) was missing a required scope (write).  All required scope elements: [write, admin]',
    });
  });
});
