// The control API's HTTP server: node:http and the route table, JSON in and
// out. No framework: routing is one loop over a table of ~25 patterns, and
// the rest (body limit, JSON, auth, errors) is a few lines each here.
//
// Every request passes, in order: the locality check (403 for a remote
// address unless allowRemote, and for a browser's cross-origin request
// always), the Host
// check (421 for a name the API does not serve: host-check.ts, the
// DNS-rebinding defence), the token (401), the route (404, or 405 with Allow), the query
// names (400), the body (413 over the route's cap: 64 KiB for most, the
// audit's own for POST /v1/audit; 400 for bad JSON), then the handler. Every
// error leaves through sendError with an ErrorBody.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../logger.js';
import type { KafkaesqueOptions } from '../options.js';
import { HttpError, errorResponse } from './errors.js';
import { checkAllowedHosts, misdirectedReason } from './host-check.js';
import { renderPage, webAssets } from './web-page.js';
import { matchRoute, routes, type RequestContext } from './routes.js';
import type { ControlTarget } from './target.js';
import type { ErrorBody, RouteKey } from './types.js';

export interface ControlServerOptions {
  /** Address to bind; default 127.0.0.1. */
  host?: string;
  /** 0 = a free port. */
  port?: number;
  /** When set, every request needs `Authorization: Bearer <token>`. */
  token?: string;
  /** Serve requests from non-loopback addresses (off: 403). Cross-origin browser requests are refused either way. */
  allowRemote?: boolean;
  /** Host names (besides loopback addresses and localhost) the API answers for; `.example.com` allows a domain and its subdomains. */
  allowedHosts?: readonly string[];
  log: Logger;
  /** Largest request body of the routes that name no cap of their own (routes.ts); default 64 KiB. */
  maxBodyBytes?: number;
}

export interface ControlServer {
  /** Base URL clients use, e.g. http://127.0.0.1:40123 (a loopback address when bound to a wildcard). */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  close(): Promise<void>;
}

/** The cap of a route that names none: a rule, a topic, a wait fit in a few KiB. */
const DEFAULT_MAX_BODY = 64 * 1024;

/** 127.0.0.0/8, ::1, and their IPv4-mapped IPv6 forms. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4)) return true;
  return address === '::1' || address === '0:0:0:0:0:0:0:1';
}

/** Why a request is refused as not local, or null: its remote address is not loopback. */
export function notLocalReason(remoteAddress: string | undefined): string | null {
  if (!isLoopbackAddress(remoteAddress)) return `requests from ${remoteAddress ?? 'an unknown address'} are refused: the control API serves loopback only unless controlAllowRemote is set`;
  return null;
}

/**
 * Why a browser request is refused, or null. A page of another origin
 * sends Origin: refusing it stops cross-site requests to 127.0.0.1 (and,
 * with controlAllowRemote, to this host), which could not read an answer
 * anyway (the API sends no CORS headers) but could stop a node or reset.
 * The API's own origin (Origin: http://<Host>, a page the API served) is
 * served; the Host check then decides whether that origin is really this
 * server's (a rebound name is not).
 */
export function crossOriginReason(origin: string | undefined, host: string | undefined): string | null {
  if (origin === undefined) return null;
  if (host !== undefined && origin.toLowerCase() === `http://${host.toLowerCase()}`) return null;
  return `browser requests from another origin (Origin: ${origin}) are refused: the control API serves no cross-origin requests`;
}

const digest = (s: string) => createHash('sha256').update(s).digest();

/** Constant-time check of `Authorization: Bearer <token>`. */
export function hasToken(authorization: string | undefined, token: string): boolean {
  const m = /^Bearer +(.+)$/i.exec(authorization ?? '');
  return m !== null && timingSafeEqual(digest(m[1]!.trim()), digest(token));
}

/**
 * GET / : the web view (web-page.ts). The page holds no data, but it is
 * served on the API's terms: with a token set, the page needs it too, as
 * `Authorization: Bearer` or, since a browser cannot send that header when
 * it opens a URL, as `?token=` (the page then keeps it in the tab and takes
 * it out of the address bar). Its data and actions go through the routes.
 */
function servePage(req: IncomingMessage, res: ServerResponse, url: URL, token: string | undefined): number {
  const method = req.method ?? 'GET';
  if (method !== 'GET' && method !== 'HEAD') throw new HttpError(405, 'method_not_allowed', `${method} is not allowed on / (allowed: GET)`, undefined, { allow: 'GET, HEAD' });
  for (const name of url.searchParams.keys()) if (name !== 'token') throw new HttpError(400, 'bad_parameter', `unknown query parameter '${name}' (expected token)`, name);
  const given = url.searchParams.get('token');
  if (token !== undefined && !hasToken(req.headers.authorization, token) && !(given !== null && hasToken(`Bearer ${given}`, token))) {
    throw new HttpError(401, 'unauthorized', 'a valid token is required: open the view as http://host:port/?token=<token> (or send Authorization: Bearer <token>)', undefined, { 'www-authenticate': 'Bearer realm="kafkaesque"' });
  }
  const assets = webAssets();
  if (!assets) throw new HttpError(503, 'web_view_not_built', "the web view's page is not built: run npm run build (it writes dist/web/)");
  const { html, csp } = renderPage(assets);
  res.writeHead(200, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(html),
    'cache-control': 'no-store',
    'content-security-policy': csp,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
  });
  res.end(method === 'HEAD' ? undefined : html);
  return 200;
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body) + '\n';
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store', ...headers });
  res.end(text);
}

/** The one error helper: any thrown value becomes a status and an ErrorBody. */
function sendError(res: ServerResponse, err: unknown, log: Logger, req: IncomingMessage): number {
  const { status, body, headers, unexpected } = errorResponse(err);
  if (unexpected) log.error({ err, method: req.method, url: req.url }, 'control request failed');
  send(res, status, body satisfies ErrorBody, headers);
  return status;
}

/** The body's bytes, up to `limit` (413 beyond): in one buffer of the announced length when there is one, so that a large body is not also held as chunks. */
function readRawBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const tooLarge = () => new HttpError(413, 'body_too_large', `the body is larger than ${limit} bytes, this route's cap`, undefined, { connection: 'close' });
  const announced = Number(req.headers['content-length'] ?? NaN);
  if (announced > limit) {
    req.resume();
    return Promise.reject(tooLarge());
  }
  return new Promise((resolve, reject) => {
    let whole = Number.isSafeInteger(announced) ? Buffer.allocUnsafe(announced) : undefined;
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      if (size + c.length > (whole?.length ?? limit)) {
        reject(tooLarge());
        req.resume();
        return;
      }
      if (whole) c.copy(whole, size);
      else chunks.push(c);
      size += c.length;
    });
    req.on('error', reject);
    req.on('end', () => {
      if (!whole) whole = Buffer.concat(chunks);
      resolve(size === whole.length ? whole : whole.subarray(0, size));
    });
  });
}

async function readBody(req: IncomingMessage, limit: number): Promise<unknown> {
  const text = (await readRawBody(req, limit)).toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new HttpError(400, 'bad_json', `the body is not JSON: ${(e as Error).message}`);
  }
}

export async function startControlServer(target: ControlTarget, options: ControlServerOptions): Promise<ControlServer> {
  const host = options.host ?? '127.0.0.1';
  const log = options.log.child({ component: 'control' });
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  /** Aborted on close, so that long polls answer at once instead of holding the close. */
  const closing = new AbortController();

  const hostRule = { allowRemote: options.allowRemote, allowedHosts: checkAllowedHosts(options.allowedHosts) };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<number> => {
    const why = (!options.allowRemote && notLocalReason(req.socket.remoteAddress)) || crossOriginReason(req.headers.origin, req.headers.host);
    if (why) throw new HttpError(403, 'forbidden', why);
    // 421 (RFC 9110 §15.5.20): the request names an authority this server does not answer for.
    const misdirected = misdirectedReason(req.headers.host, hostRule);
    if (misdirected) throw new HttpError(421, 'misdirected_host', misdirected, 'Host', { connection: 'close' });
    const url = new URL(req.url ?? '/', 'http://control');
    const method = req.method ?? 'GET';
    if (url.pathname === '/') return servePage(req, res, url, options.token);
    if (options.token !== undefined && !hasToken(req.headers.authorization, options.token)) {
      throw new HttpError(401, 'unauthorized', 'a valid token is required: Authorization: Bearer <token>', undefined, { 'www-authenticate': 'Bearer realm="kafkaesque"' });
    }
    const { route, params, allowed } = matchRoute(method, url.pathname);
    if (!route) {
      if (allowed.length) throw new HttpError(405, 'method_not_allowed', `${method} is not allowed on ${url.pathname} (allowed: ${allowed.join(', ')})`, undefined, { allow: allowed.join(', ') });
      throw new HttpError(404, 'unknown_route', `no route ${method} ${url.pathname}; see docs/control-api.md`);
    }
    const entry = routes[route.key] as unknown as { query?: readonly string[]; status?: number; maxBodyBytes?: number; rawBody?: boolean; handle(ctx: RequestContext<RouteKey>): unknown };
    for (const name of url.searchParams.keys()) {
      if (!entry.query?.includes(name)) throw new HttpError(400, 'bad_parameter', `unknown query parameter '${name}'${entry.query ? ` (expected ${entry.query.join(', ')})` : ''}`, name);
    }
    const cap = entry.maxBodyBytes ?? maxBody;
    const body = entry.rawBody ? await readRawBody(req, cap) : await readBody(req, cap);
    const gone = new AbortController();
    const onClose = () => gone.abort();
    res.on('close', onClose);
    closing.signal.addEventListener('abort', onClose);
    try {
      const result = await entry.handle({ target, params: params as never, query: url.searchParams, body, signal: gone.signal });
      const status = entry.status ?? 200;
      send(res, status, result);
      return status;
    } finally {
      closing.signal.removeEventListener('abort', onClose);
    }
  };

  const server = createServer((req, res) => {
    const started = performance.now();
    handle(req, res)
      .catch((err) => sendError(res, err, log, req))
      .then((status) => log.debug({ method: req.method, url: req.url?.replace(/([?&]token=)[^&]*/, '$1…'), status, ms: Math.round(performance.now() - started) }, 'control request'));
  });
  // Keep-alive sockets from clients must not hold stop() for the idle timeout.
  server.keepAliveTimeout = 5000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  }).catch((err: NodeJS.ErrnoException) => {
    throw new Error(`control API cannot listen on ${host}:${options.port ?? 0}: ${err.code ?? err.message}`);
  });

  const port = (server.address() as AddressInfo).port;
  const reachable = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  const url = `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
  if (reachable !== 'localhost' && !isLoopbackAddress(reachable) && !options.allowRemote) log.warn({ host }, 'control API bound to a non-loopback address but refuses remote requests (set controlAllowRemote)');
  if (options.allowRemote && options.token === undefined) log.warn({ host }, 'control API accepts remote requests without a token');
  log.info({ url }, 'control API listening');

  let closed: Promise<void> | undefined;
  return {
    url,
    host,
    port,
    close: () =>
      (closed ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        closing.abort();
        server.closeIdleConnections();
        // Requests still running (a fault wait) are cut rather than waited for.
        setImmediate(() => server.closeAllConnections());
      })),
  };
}

/**
 * The control API of a cluster or proxy just started, on the control options
 * it was started with. If the API cannot start (its port is taken), what was
 * started is stopped again: a half-started instance must not linger.
 */
export async function startControlServerFor(
  running: ControlTarget & { stop(): Promise<void> },
  options: Pick<KafkaesqueOptions, 'controlHost' | 'controlPort' | 'controlToken' | 'controlAllowRemote' | 'controlAllowedHosts'>,
  log: Logger,
): Promise<ControlServer> {
  try {
    return await startControlServer(running, { host: options.controlHost, port: options.controlPort, token: options.controlToken, allowRemote: options.controlAllowRemote, allowedHosts: options.controlAllowedHosts, log });
  } catch (err) {
    await running.stop();
    throw err;
  }
}
