// The CLI's `fetch`: the part of it that ControlClient uses (method, headers,
// a string body, an abort signal; status, ok, text()), over node:http.
// Node 20's global fetch loads undici on first use, ~50 ms of every CLI
// command that talks to an instance; node:http is in the bundle already (the
// control server). scripts/bundle-cli.mjs injects this in place of the global
// `fetch` in dist/cli.cjs only; the library keeps the real one. Errors look
// like fetch's: an abort rejects with the signal's reason (a TimeoutError for
// AbortSignal.timeout), a failed connection with a TypeError whose cause is
// the socket error.
import { request } from 'node:http';

interface FetchInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
}

export interface FetchAnswer {
  readonly status: number;
  readonly ok: boolean;
  text(): Promise<string>;
}

export function httpFetch(url: string, init: FetchInit = {}): Promise<FetchAnswer> {
  return new Promise((resolve, reject) => {
    const { signal } = init;
    if (signal?.aborted) return reject(signal.reason);
    const headers: Record<string, string> = { ...init.headers };
    if (init.body !== undefined) headers['content-length'] = String(Buffer.byteLength(init.body));
    // No keep-alive pool: an idle pooled socket would hold a finished command open.
    const req = request(url, { method: init.method ?? 'GET', headers, agent: false });
    const onAbort = () => {
      req.destroy();
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const settled = () => signal?.removeEventListener('abort', onAbort);
    req.on('error', (err) => {
      settled();
      reject(new TypeError('fetch failed', { cause: err }));
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', (err) => {
        settled();
        reject(new TypeError('fetch failed', { cause: err }));
      });
      res.on('end', () => {
        settled();
        const text = Buffer.concat(chunks).toString('utf8');
        const status = res.statusCode ?? 0;
        resolve({ status, ok: status >= 200 && status < 300, text: async () => text });
      });
    });
    req.end(init.body);
  });
}

export { httpFetch as fetch };
