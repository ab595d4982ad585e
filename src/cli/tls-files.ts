// The start verb's TLS files: the PEMs its flags name, read into the
// library's `tls` option, and what clients need to connect (the CA to
// trust; with client authentication and a generated CA, a client
// certificate and its key) written where the flags say, or into a fresh
// folder of the temp dir that belongs to this run.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ClientAuth, TlsInfo, TlsOptions } from '../server/tls.js';
import { UsageError } from './common.js';

export interface TlsFlags {
  tls: boolean;
  'tls-cert'?: string;
  'tls-key'?: string;
  'tls-ca'?: string;
  'tls-client-auth'?: ClientAuth;
  'tls-client-ca'?: string;
}

/** Where the flags ask for the files clients need. */
export interface TlsOutFlags {
  'tls-ca-out'?: string;
  'tls-client-cert-out'?: string;
  'tls-client-key-out'?: string;
}

function read(flag: string, path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw new UsageError(`--${flag} ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

/** The `tls` option the flags say: undefined without TLS, true for a generated certificate and nothing more. */
export function tlsOptionsFromFlags(f: TlsFlags): TlsOptions | true | undefined {
  if ((f['tls-cert'] === undefined) !== (f['tls-key'] === undefined)) throw new UsageError('--tls-cert and --tls-key go together');
  if (f['tls-ca'] !== undefined && f['tls-cert'] === undefined) throw new UsageError('--tls-ca names the CA of --tls-cert; a generated certificate brings its own');
  const clientAuth = f['tls-client-auth'];
  if (f['tls-client-ca'] !== undefined && (clientAuth ?? 'none') === 'none') throw new UsageError('--tls-client-ca checks client certificates: it needs --tls-client-auth required or requested');
  const given = f['tls-cert'] !== undefined;
  if (!f.tls && !given && clientAuth === undefined) return undefined;
  const options: TlsOptions = {
    ...(given ? { cert: read('tls-cert', f['tls-cert']!), key: read('tls-key', f['tls-key']!) } : {}),
    ...(f['tls-ca'] !== undefined ? { ca: read('tls-ca', f['tls-ca']) } : {}),
    ...(clientAuth !== undefined ? { clientAuth } : {}),
    ...(f['tls-client-ca'] !== undefined ? { clientCa: read('tls-client-ca', f['tls-client-ca']) } : {}),
  };
  return Object.keys(options).length === 0 ? true : options;
}

export interface TlsFiles {
  /** The CA clients trust. */
  ca: string;
  /** The generated client certificate and its key, when there is one. */
  clientCert?: string;
  clientKey?: string;
  /** Removes the files this run placed in the temp dir (those at paths the user named stay). */
  cleanUp(): void;
}

/** Writes what clients need; a file whose path the flags do not name goes into one fresh temp folder. */
export function writeTlsFiles(info: TlsInfo, out: TlsOutFlags): TlsFiles {
  let folder: string | undefined;
  const place = (flag: keyof TlsOutFlags, name: string, text: string, mode = 0o644) => {
    let target = out[flag];
    if (target === undefined) {
      folder ??= mkdtempSync(join(tmpdir(), 'kafkaesque-'));
      target = join(folder, name);
    }
    try {
      writeFileSync(target, text, { mode });
    } catch (err) {
      throw new Error(`--${flag} ${target}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
    return target;
  };
  const cleanUp = () => {
    if (folder) rmSync(folder, { recursive: true, force: true });
  };
  try {
    const files: TlsFiles = { ca: place('tls-ca-out', 'ca.pem', info.ca), cleanUp };
    if (info.client) {
      files.clientCert = place('tls-client-cert-out', 'client.pem', info.client.cert);
      files.clientKey = place('tls-client-key-out', 'client-key.pem', info.client.key, 0o600); // a private key: the user's eyes only
    }
    return files;
  } catch (err) {
    cleanUp();
    throw err;
  }
}
