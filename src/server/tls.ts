// TLS for the client-facing listeners (Kafka's SSL and SASL_SSL listeners):
// the key and certificate a user gives, or a throwaway CA and a server
// certificate signed by it, made at start for the advertised host,
// 127.0.0.1, ::1 and localhost. Clients trust the CA (RunningCluster.tls.ca,
// `--tls-ca-out`); hostname verification passes for every advertised address.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSecureContext, TLSSocket, type SecureContext } from 'node:tls';
import type { Socket } from 'node:net';

/** `tls: true` generates a certificate; otherwise the PEM key and certificate to serve (and the CA that signed it, for clients). */
export interface TlsOptions {
  /** PEM certificate (chain) the listeners present. */
  cert: string | Buffer;
  /** PEM private key of `cert`. */
  key: string | Buffer;
  /** PEM CA certificate clients should trust; default: `cert` itself (self-signed). */
  ca?: string | Buffer;
}

/** What the listeners serve and what clients trust, as PEM text. */
export interface TlsMaterial {
  readonly cert: string;
  readonly key: string;
  readonly ca: string;
  /** Made at start (tls: true) rather than given. */
  readonly generated: boolean;
}

const pem = (v: string | Buffer): string => (typeof v === 'string' ? v : v.toString('utf8'));

/** Checks a `tls` option's shape; the message names the field. */
export function validateTlsOptions(tls: unknown): void {
  if (tls === undefined || tls === true) return;
  if (tls === null || typeof tls !== 'object') throw new TypeError(`tls must be true or { cert, key, ca? }, got ${JSON.stringify(tls)}`);
  const t = tls as Record<string, unknown>;
  for (const field of ['cert', 'key'] as const) {
    if (typeof t[field] !== 'string' && !Buffer.isBuffer(t[field])) throw new TypeError(`tls.${field} must be PEM text (a string or Buffer); pass tls: true to generate a certificate`);
  }
  if (t.ca !== undefined && typeof t.ca !== 'string' && !Buffer.isBuffer(t.ca)) throw new TypeError('tls.ca must be PEM text (a string or Buffer)');
}

/** The material for a `tls` option: given PEMs checked by loading them, or a CA and certificate generated for `hosts`. */
export async function resolveTls(tls: TlsOptions | true, hosts: readonly string[]): Promise<TlsMaterial> {
  if (tls === true) return generateCertificate(hosts);
  const material = { cert: pem(tls.cert), key: pem(tls.key), ca: pem(tls.ca ?? tls.cert), generated: false };
  try {
    // Fails here, at start, on a key that does not match or text that is not PEM.
    createSecureContext({ cert: material.cert, key: material.key });
  } catch (err) {
    throw new Error(`tls: the certificate and key cannot be used: ${(err as Error).message}`);
  }
  return material;
}

async function generateCertificate(hosts: readonly string[]): Promise<TlsMaterial> {
  // Loaded only when asked for: the certificate code is most of a megabyte, and most runs use no TLS.
  const { generate } = await import('selfsigned');
  const names = [...new Set([...hosts, '127.0.0.1', '::1', 'localhost'])];
  const notAfterDate = new Date(Date.now() + 365 * 86_400_000);
  // EC P-256 keys: a few ms to make, where RSA 2048 takes hundreds.
  const ca = await generate([{ name: 'commonName', value: 'kafkaesque throwaway CA' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notAfterDate,
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    ],
  });
  const server = await generate([{ name: 'commonName', value: names[0]! }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notAfterDate,
    ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: names.map((n) => (isIP(n) ? { type: 7 as const, ip: n } : { type: 2 as const, value: n })) },
    ],
  });
  return { cert: server.cert, key: server.private, ca: ca.cert, generated: true };
}

export function secureContext(material: TlsMaterial): SecureContext {
  return createSecureContext({ cert: material.cert, key: material.key });
}

/**
 * Wraps an accepted TCP socket as the server end of a TLS session; `secure`
 * runs once the handshake is done. A client that does not finish it within
 * timeoutMs (0: no bound), or that speaks plaintext, is disconnected and
 * `failed` says why.
 */
export function serveTls(socket: Socket, context: SecureContext, timeoutMs: number, secure: (tls: TLSSocket) => void, failed: (reason: string) => void): TLSSocket {
  const tls = new TLSSocket(socket, { isServer: true, secureContext: context, requestCert: false, rejectUnauthorized: false });
  let done = false;
  const timer =
    timeoutMs > 0
      ? setTimeout(() => {
          done = true;
          failed(`no TLS handshake within ${timeoutMs} ms`);
          tls.destroy();
        }, timeoutMs).unref()
      : undefined;
  tls.once('secure', () => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    secure(tls);
  });
  tls.on('error', (err) => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    failed(`TLS handshake failed: ${err.message}`);
    tls.destroy();
  });
  return tls;
}

/** `--tls-cert/--tls-key/--tls-ca` paths read into TlsOptions; an unreadable file is named in the error. */
export function tlsOptionsFromFiles(paths: { cert: string; key: string; ca?: string }): TlsOptions {
  const read = (flag: string, path: string) => {
    try {
      return readFileSync(path, 'utf8');
    } catch (err) {
      throw new Error(`--${flag} ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
  };
  return { cert: read('tls-cert', paths.cert), key: read('tls-key', paths.key), ...(paths.ca ? { ca: read('tls-ca', paths.ca) } : {}) };
}

/** Writes the CA clients should trust to `path` (or a fresh file in the temp dir); returns the path. */
export function writeCaFile(ca: string, path?: string): string {
  const target = path ?? join(mkdtempSync(join(tmpdir(), 'kafkaesque-')), 'ca.pem');
  writeFileSync(target, ca);
  return target;
}
