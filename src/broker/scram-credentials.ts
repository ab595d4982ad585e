// The cluster's SCRAM credentials: one per (user, mechanism), so a user may
// hold a different password for SCRAM-SHA-256 and SCRAM-SHA-512, as Kafka's
// metadata does (ScramControlManager, ScramImage). The server's SCRAM
// mechanism looks users up here; DescribeUserScramCredentials and
// AlterUserScramCredentials read and change it. Kafka keeps only the salt,
// the iterations, StoredKey and ServerKey (RFC 5802), derived from the salted
// password the client sends (ScramFormatter); so does this store.
import { createHash, createHmac } from 'node:crypto';

export type ScramMechanismName = 'SCRAM-SHA-256' | 'SCRAM-SHA-512';

/** org.apache.kafka.clients.admin.ScramMechanism's type bytes (0 is UNKNOWN). */
export const SCRAM_MECHANISM_TYPES: ReadonlyMap<number, ScramMechanismName> = new Map([
  [1, 'SCRAM-SHA-256'],
  [2, 'SCRAM-SHA-512'],
]);
const TYPE_OF: Record<ScramMechanismName, number> = { 'SCRAM-SHA-256': 1, 'SCRAM-SHA-512': 2 };

export const SCRAM_DIGEST: Record<ScramMechanismName, { hash: 'sha256' | 'sha512'; size: number }> = {
  'SCRAM-SHA-256': { hash: 'sha256', size: 32 },
  'SCRAM-SHA-512': { hash: 'sha512', size: 64 },
};

export interface ScramCredential {
  salt: Buffer;
  iterations: number;
  storedKey: Buffer;
  serverKey: Buffer;
}

/** ScramFormatter: StoredKey = H(HMAC(salted, "Client Key")), ServerKey = HMAC(salted, "Server Key"). */
export function credentialFromSaltedPassword(mechanism: ScramMechanismName, salt: Buffer, iterations: number, saltedPassword: Buffer): ScramCredential {
  const { hash } = SCRAM_DIGEST[mechanism];
  const clientKey = createHmac(hash, saltedPassword).update('Client Key').digest();
  return {
    salt: Buffer.from(salt),
    iterations,
    storedKey: createHash(hash).update(clientKey).digest(),
    serverKey: createHmac(hash, saltedPassword).update('Server Key').digest(),
  };
}

export class ScramCredentialStore {
  /** user → mechanism → credential, users in the order they were first given one. */
  private readonly byUser = new Map<string, Map<ScramMechanismName, ScramCredential>>();

  get(mechanism: ScramMechanismName, user: string): ScramCredential | undefined {
    return this.byUser.get(user)?.get(mechanism);
  }

  set(user: string, mechanism: ScramMechanismName, credential: ScramCredential): void {
    let mine = this.byUser.get(user);
    if (!mine) this.byUser.set(user, (mine = new Map()));
    mine.set(mechanism, credential);
  }

  /** Removes one mechanism's credential of a user; false when there was none. */
  delete(user: string, mechanism: ScramMechanismName): boolean {
    const mine = this.byUser.get(user);
    if (!mine?.delete(mechanism)) return false;
    if (mine.size === 0) this.byUser.delete(user);
    return true;
  }

  users(): string[] {
    return [...this.byUser.keys()];
  }

  /** A user's credentials as DescribeUserScramCredentials lists them (mechanism type, iterations), by mechanism type. */
  describe(user: string): { mechanism: number; iterations: number }[] {
    const mine = this.byUser.get(user);
    if (!mine) return [];
    return [...mine].map(([m, c]) => ({ mechanism: TYPE_OF[m], iterations: c.iterations })).sort((a, b) => a.mechanism - b.mechanism);
  }
}
