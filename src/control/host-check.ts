// The control API answers only for its own names: a request's Host header
// must name a loopback address, `localhost`, or a host the user allowed
// (controlAllowedHosts). This is what defeats DNS rebinding: a page on
// attacker.example whose name is re-pointed at 127.0.0.1 makes same-origin
// requests (no Origin header) that reach the API from loopback, but its Host
// still says attacker.example. An IP literal cannot be rebound (the page's
// origin would be that address, i.e. this server), so with controlAllowRemote
// every IP literal is accepted; names other than localhost are accepted only
// when listed. A listed entry that starts with a dot (`.ci.internal`) allows
// that domain and every subdomain, as development servers do.
import { isIP } from 'node:net';

export interface HostRule {
  /** Names from controlAllowedHosts, lower case: exact names, or `.domain` for a domain and its subdomains. */
  allowedHosts?: readonly string[];
  /** controlAllowRemote: any IP literal is then a name of this server. */
  allowRemote?: boolean;
}

/** The host part of a Host header ("[::1]:80" → "::1", "Localhost.:9" → "localhost"), or null when it is not host[:port]. */
export function hostOf(header: string): string | null {
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]\s/@]+))(?::(\d{1,5}))?$/.exec(header.trim());
  if (!m) return null;
  if (m[1] !== undefined) return isIP(m[1]) === 6 ? m[1].toLowerCase() : null;
  // A fully qualified name's trailing dot names the same host.
  return m[2]!.toLowerCase().replace(/\.$/, '');
}

const isLoopbackLiteral = (host: string) => host === '::1' || host === '0:0:0:0:0:0:0:1' || (isIP(host) === 4 && host.startsWith('127.'));

function listed(host: string, allowed: readonly string[]): boolean {
  return allowed.some((entry) => {
    return entry.startsWith('.') ? host === entry.slice(1) || host.endsWith(entry) : host === entry;
  });
}

/** The allowed-hosts list, checked: each entry a host name (no port, scheme or path), as `controlAllowedHosts[i]` in the error. */
export function checkAllowedHosts(hosts: readonly string[] | undefined): string[] {
  if (hosts === undefined) return [];
  if (!Array.isArray(hosts)) throw new TypeError(`controlAllowedHosts must be a list of host names, got ${JSON.stringify(hosts)}`);
  return hosts.map((h, i) => {
    const domain = typeof h === 'string' && h.startsWith('.');
    const name = typeof h === 'string' && !/[/@]|:\d+$/.test(h) ? hostOf(domain ? h.slice(1) : h) : null;
    if (name === null || name === '') throw new RangeError(`controlAllowedHosts[${i}] must be a host name such as 'my-ci-host' or '.ci.internal' (no port, scheme or path), got ${JSON.stringify(h)}`);
    return domain ? `.${name}` : name;
  });
}

/** Why the Host header is refused, or null when the API serves that name. */
export function misdirectedReason(header: string | undefined, rule: HostRule): string | null {
  if (header === undefined || header === '') return 'the request has no Host header';
  const host = hostOf(header);
  if (host === null) return `the Host header '${header}' is not host[:port]`;
  if (host === 'localhost' || isLoopbackLiteral(host)) return null;
  if (rule.allowRemote && isIP(host) !== 0) return null;
  if (listed(host, rule.allowedHosts ?? [])) return null;
  return (
    `the control API does not answer for host '${host}' (Host: ${header}): it serves loopback addresses, localhost${rule.allowRemote ? ', IP addresses' : ''} and the hosts you allow. ` +
    `To allow it: startCluster({ controlAllowedHosts: ['${host}'] }) or kafkaesque start --control-allowed-host ${host} (see docs/security.md)`
  );
}
