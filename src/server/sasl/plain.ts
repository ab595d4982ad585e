// SASL/PLAIN (RFC 4616) on the server side: one message,
// "[authzid] NUL authcid NUL password", checked against the configured users.
import { timingSafeEqual } from 'node:crypto';

export type PlainResult = { ok: true; user: string } | { ok: false; error: string };

export function checkPlain(message: Buffer, users: ReadonlyMap<string, string>): PlainResult {
  const parts = message.toString('utf8').split('\u0000');
  if (parts.length !== 3) return { ok: false, error: 'Invalid SASL/PLAIN response: expected 3 tokens' };
  const [authzid, user, password] = parts as [string, string, string];
  if (!user) return { ok: false, error: 'Authentication failed: username not specified' };
  if (authzid && authzid !== user) return { ok: false, error: 'Authentication failed: Client requested an authorization id that is different from username' };
  const expected = users.get(user);
  const given = Buffer.from(password);
  if (expected === undefined || Buffer.byteLength(expected) !== given.length || !timingSafeEqual(Buffer.from(expected), given)) {
    return { ok: false, error: 'Authentication failed: Invalid username or password' };
  }
  return { ok: true, user };
}
