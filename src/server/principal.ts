// Who a connection is, as Kafka's DefaultKafkaPrincipalBuilder says: the SASL
// authorization id (User:<name>), else the TLS client certificate's subject
// as X500Principal.getName() prints it (RFC 2253; ssl.principal.mapping.rules
// DEFAULT), else User:ANONYMOUS (PLAINTEXT, or TLS without a client
// certificate).
import type { X509Certificate } from 'node:crypto';

export const ANONYMOUS = 'User:ANONYMOUS';

/** The principal of a connection from what it authenticated with. */
export function principalOf(saslUser: string | null, peerCertificate: X509Certificate | undefined | null): string {
  if (saslUser !== null) return `User:${saslUser}`;
  if (peerCertificate) return `User:${rfc2253Subject(peerCertificate.raw)}`;
  return ANONYMOUS;
}

/** InetAddress.getHostAddress of a client: an IPv4-mapped IPv6 address is the IPv4 one, as Java reads it. */
export function hostAddress(remoteAddress: string | undefined): string {
  if (!remoteAddress) return '';
  return remoteAddress.startsWith('::ffff:') && remoteAddress.includes('.') ? remoteAddress.slice(7) : remoteAddress;
}

// ---------- the subject of a DER certificate, as RFC 2253 text ----------

interface Tlv {
  tag: number;
  /** The whole element, header included. */
  start: number;
  /** The contents. */
  body: number;
  end: number;
}

function tlv(der: Buffer, at: number): Tlv {
  const tag = der[at]!;
  let len = der[at + 1]!;
  let body = at + 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + der[body + i]!;
    body += n;
  }
  if (body + len > der.length) throw new Error('certificate: DER element runs past the end');
  return { tag, start: at, body, end: body + len };
}

function children(der: Buffer, parent: Tlv): Tlv[] {
  const out: Tlv[] = [];
  for (let at = parent.body; at < parent.end; ) {
    const t = tlv(der, at);
    out.push(t);
    at = t.end;
  }
  return out;
}

function oidText(der: Buffer, t: Tlv): string {
  const bytes = der.subarray(t.body, t.end);
  const parts: number[] = [];
  let v = 0;
  for (const b of bytes) {
    v = v * 128 + (b & 0x7f);
    if (!(b & 0x80)) {
      if (parts.length === 0) parts.push(v < 80 ? Math.floor(v / 40) : 2, v < 80 ? v % 40 : v - 80);
      else parts.push(v);
      v = 0;
    }
  }
  return parts.join('.');
}

/** The RFC 2253 keywords Java prints (AVAKeyword, RFC2253 standard); other attribute types print as dotted OIDs. */
const KEYWORDS: Record<string, string> = {
  '2.5.4.3': 'CN', '2.5.4.6': 'C', '2.5.4.7': 'L', '2.5.4.8': 'ST', '2.5.4.10': 'O', '2.5.4.11': 'OU',
  '2.5.4.9': 'STREET', '0.9.2342.19200300.100.1.25': 'DC', '0.9.2342.19200300.100.1.1': 'UID',
};

/** DER string types AVA.isDerString accepts (non-canonical): UTF8, Printable, T61, IA5, General, BMP. */
const STRING_TAGS = new Set([0x0c, 0x13, 0x14, 0x16, 0x1b, 0x1e]);
const ESCAPEES = ',=+<>#;"\\';

/** AVA.toRFC2253String's value: the text, escaped; a value that is not a string as # and its DER in hex. */
function avaValue(der: Buffer, v: Tlv, keyword: boolean): string {
  if (!keyword || !STRING_TAGS.has(v.tag)) return `#${der.subarray(v.start, v.end).toString('hex')}`;
  const bytes = der.subarray(v.body, v.end);
  const text = v.tag === 0x1e ? Buffer.from(bytes).swap16().toString('utf16le') : v.tag === 0x14 ? bytes.toString('latin1') : bytes.toString('utf8');
  const chars = [...text];
  return chars
    .map((c, i) => {
      if (ESCAPEES.includes(c)) return `\\${c}`;
      if (c === '\u0000') return '\\00';
      // A leading or trailing space is escaped; inner ones are not.
      if (c === ' ' && (i === 0 || i === chars.length - 1)) return '\\ ';
      return c;
    })
    .join('');
}

/** X500Principal.getName() (RFC 2253) of a DER certificate's subject: the RDNs last first, joined by ','; an RDN's values by '+'. */
export function rfc2253Subject(der: Buffer): string {
  const cert = tlv(der, 0);
  const tbs = children(der, cert)[0]!;
  const fields = children(der, tbs);
  // [0] version is optional; then serialNumber, signature, issuer, validity, subject.
  const subject = fields[fields[0]!.tag === 0xa0 ? 5 : 4]!;
  const rdns = children(der, subject).map((rdn) =>
    children(der, rdn)
      .map((ava) => {
        const [type, value] = children(der, ava);
        const oid = oidText(der, type!);
        const keyword = KEYWORDS[oid];
        return `${keyword ?? oid}=${avaValue(der, value!, keyword !== undefined)}`;
      })
      .join('+'),
  );
  return rdns.reverse().join(',');
}
