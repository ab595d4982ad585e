// TLS for the client-facing listeners (Kafka's SSL and SASL_SSL listeners):
// the key and certificate a user gives, or a throwaway CA and a server
// certificate signed by it, made at start for the advertised host,
// 127.0.0.1, ::1 and localhost. Clients trust the CA (RunningCluster.tls.ca,
// `--tls-ca-out`); hostname verification passes for every advertised address.
// With ssl.client.auth (`clientAuth`), clients present certificates too
// (mTLS), checked against `clientCa`; with a generated CA, a client
// certificate signed by it is made as well.
import { isIP } from 'node:net';
import { createRequire } from 'node:module';
import type { SecureContext, TLSSocket } from 'node:tls';
import type { CertificateExtension } from 'selfsigned';
import type { Socket } from 'node:net';

// node:tls is loaded when TLS is first configured, not by every start (~9 ms).
const require = createRequire(import.meta.url);
let nodeTls: typeof import('node:tls') | undefined;
const tlsModule = () => (nodeTls ??= require('node:tls') as typeof import('node:tls'));

/**
 * ssl.client.auth: `required` refuses a client without a certificate its
 * CA signed; `requested` lets a client without one in, but refuses one whose
 * certificate does not verify (as Java's SSLEngine with want-client-auth
 * does); `none` asks for none.
 */
export type ClientAuth = 'required' | 'requested' | 'none';
export const CLIENT_AUTH_VALUES: readonly ClientAuth[] = ['required', 'requested', 'none'];

/**
 * `tls: true` generates a certificate. An object gives the PEM key and
 * certificate to serve (and the CA that signed it, for clients), or leaves
 * both out to have them generated, and sets client authentication.
 */
export interface TlsOptions {
  /** PEM certificate (chain) the listeners present; with `key`, or neither (generated). */
  cert?: string | Buffer;
  /** PEM private key of `cert`. */
  key?: string | Buffer;
  /** PEM CA certificate clients should trust; default: `cert` itself (self-signed). */
  ca?: string | Buffer;
  /** ssl.client.auth; default `none`. */
  clientAuth?: ClientAuth;
  /** PEM CA certificate(s) client certificates must chain to (ssl.truststore); default: the generated CA, or `ca`, or `cert`. */
  clientCa?: string | Buffer;
}

/** What the listeners serve and what clients trust, as PEM text. */
export interface TlsMaterial {
  readonly cert: string;
  readonly key: string;
  readonly ca: string;
  /** Made at start rather than given. */
  readonly generated: boolean;
  readonly clientAuth: ClientAuth;
  /** What client certificates are checked against (with clientAuth other than none). */
  readonly clientCa: string;
  /** A client certificate and key signed by the generated CA, when that CA is the one that checks clients. */
  readonly client: { readonly cert: string; readonly key: string } | null;
}

/**
 * What a running cluster or proxy tells its clients about its TLS
 * (RunningCluster.tls): the CA to trust, the certificate presented, the
 * client authentication asked for, and a client certificate and key the
 * listeners accept (made with a generated CA that also checks clients;
 * null otherwise).
 */
export type TlsInfo = Pick<TlsMaterial, 'ca' | 'cert' | 'clientAuth' | 'client'>;

/** A listener's TLS: the context it serves and whether it asks clients for certificates. */
export interface TlsServing {
  readonly context: SecureContext;
  readonly clientAuth: ClientAuth;
}

const pem = (v: string | Buffer): string => (typeof v === 'string' ? v : v.toString('utf8'));

const isPem = (v: unknown) => typeof v === 'string' || Buffer.isBuffer(v);

/** Checks a `tls` option's shape; the message names the field. */
export function validateTlsOptions(tls: unknown): void {
  if (tls === undefined || tls === true) return;
  if (tls === null || typeof tls !== 'object' || Array.isArray(tls)) throw new TypeError(`tls must be true or { cert?, key?, ca?, clientAuth?, clientCa? }, got ${JSON.stringify(tls)}`);
  const t = tls as Record<string, unknown>;
  for (const field of ['cert', 'key', 'ca', 'clientCa'] as const) {
    if (t[field] !== undefined && !isPem(t[field])) throw new TypeError(`tls.${field} must be PEM text (a string or Buffer)`);
  }
  if ((t.cert === undefined) !== (t.key === undefined)) throw new TypeError('tls.cert and tls.key go together; leave both out to have a certificate generated');
  if (t.ca !== undefined && t.cert === undefined) throw new TypeError('tls.ca names the CA of a given tls.cert; a generated certificate brings its own');
  if (t.clientAuth !== undefined && !CLIENT_AUTH_VALUES.includes(t.clientAuth as ClientAuth)) {
    throw new TypeError(`tls.clientAuth must be one of ${CLIENT_AUTH_VALUES.join(', ')}, got ${JSON.stringify(t.clientAuth)}`);
  }
  if (t.clientCa !== undefined && (t.clientAuth ?? 'none') === 'none') throw new TypeError("tls.clientCa checks client certificates: it needs tls.clientAuth 'required' or 'requested'");
}

/** The material for a `tls` option: given PEMs checked by loading them, or a CA and certificates generated for `hosts`. */
export async function resolveTls(tls: TlsOptions | true, hosts: readonly string[]): Promise<TlsMaterial> {
  const options: TlsOptions = tls === true ? {} : tls;
  const clientAuth = options.clientAuth ?? 'none';
  if (options.cert === undefined || options.key === undefined) {
    // A client certificate only where it will be accepted: signed by the CA that checks clients.
    const generated = await generateCertificates(hosts, clientAuth !== 'none' && options.clientCa === undefined);
    return { ...generated, generated: true, clientAuth, clientCa: options.clientCa ? pem(options.clientCa) : generated.ca };
  }
  const cert = pem(options.cert);
  const ca = pem(options.ca ?? options.cert);
  const material: TlsMaterial = { cert, key: pem(options.key), ca, generated: false, clientAuth, clientCa: options.clientCa ? pem(options.clientCa) : ca, client: null };
  try {
    // Fails here, at start, on a key that does not match or text that is not PEM.
    tlsServing(material);
  } catch (err) {
    throw new Error(`tls: the certificate and key cannot be used: ${(err as Error).message}`);
  }
  return material;
}

async function generateCertificates(hosts: readonly string[], withClient: boolean): Promise<Pick<TlsMaterial, 'cert' | 'key' | 'ca' | 'client'>> {
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
  // Leaf certificates the CA signs: the listeners' (for every name clients may dial) and, with client authentication, a client's.
  const leaf = (commonName: string, extensions: CertificateExtension[]) =>
    generate([{ name: 'commonName', value: commonName }], {
      keyType: 'ec',
      algorithm: 'sha256',
      notAfterDate,
      ca: { key: ca.private, cert: ca.cert },
      extensions: [{ name: 'basicConstraints', cA: false }, { name: 'keyUsage', digitalSignature: true, keyEncipherment: true }, ...extensions],
    });
  const server = await leaf(names[0]!, [
    { name: 'extKeyUsage', serverAuth: true },
    { name: 'subjectAltName', altNames: names.map((n) => (isIP(n) ? { type: 7 as const, ip: n } : { type: 2 as const, value: n })) },
  ]);
  const client = withClient ? await leaf('kafkaesque-client', [{ name: 'extKeyUsage', clientAuth: true }]) : null;
  return { cert: server.cert, key: server.private, ca: ca.cert, client: client && { cert: client.cert, key: client.private } };
}

/** The context a listener serves, with the CA client certificates are checked against when it asks for them. */
export function tlsServing(material: TlsMaterial): TlsServing {
  const asksClients = material.clientAuth !== 'none';
  return {
    context: tlsModule().createSecureContext({ cert: material.cert, key: material.key, ...(asksClients ? { ca: material.clientCa } : {}) }),
    clientAuth: material.clientAuth,
  };
}

/** Whether a connection is TLS, without loading node:tls (an `instanceof TLSSocket` would, at every start). */
export function isTlsSocket(socket: Socket): socket is TLSSocket {
  return (socket as Partial<TLSSocket>).encrypted === true;
}

/**
 * Wraps an accepted TCP socket as the server end of a TLS session; `secure`
 * runs once the handshake is done (and, with client authentication, the
 * client's certificate is accepted). A client that does not finish it
 * within timeoutMs (0: no bound), that speaks plaintext, or whose
 * certificate is missing or does not verify where one is needed, is
 * disconnected and `failed` says why.
 */
export function serveTls(socket: Socket, serving: TlsServing, timeoutMs: number, secure: (tls: TLSSocket) => void, failed: (reason: string) => void): TLSSocket {
  const tls = new (tlsModule().TLSSocket)(socket, {
    isServer: true,
    secureContext: serving.context,
    requestCert: serving.clientAuth !== 'none',
    // With required, OpenSSL ends a handshake that brings no certificate (the client gets
    // "certificate required"); whether a certificate verifies is checked below either way.
    rejectUnauthorized: serving.clientAuth === 'required',
  });
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
    const refused = serving.clientAuth === 'none' ? null : refusedCertificate(tls);
    if (refused) {
      failed(refused);
      tls.destroy();
      return;
    }
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

/** With client authentication: why the certificate the client presented is refused, or null (it verifies, or none came). */
function refusedCertificate(tls: TLSSocket): string | null {
  const presented = Object.keys(tls.getPeerCertificate() ?? {}).length > 0;
  if (!presented) return null;
  const error = verifyError(tls);
  return error === null ? null : `client certificate refused: ${error}`;
}

/**
 * OpenSSL's verdict on the peer's certificate chain against the context's
 * CAs. Node's VerifyCallback lets every handshake through and leaves the
 * verdict on the TLS handle; tls.Server reads it there and sets
 * `authorized`, but a TLSSocket made from an accepted socket, as here, has
 * nobody to do that, so this reads it the same way. Fails closed: a Node
 * without that handle refuses every certificate rather than trusting one.
 */
function verifyError(tls: TLSSocket): string | null {
  const handle = (tls as unknown as { _handle?: { verifyError?: () => (Error & { code?: string }) | null } })._handle;
  if (typeof handle?.verifyError !== 'function') return 'this Node.js version gives no way to verify it';
  const error = handle.verifyError();
  return error ? (error.code ?? error.message) : null;
}
