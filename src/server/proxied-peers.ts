// Who is at the far end of a proxied connection. Behind the chaos proxy a
// broker's socket comes from the proxy, which terminates the client's TLS;
// the authorizer still needs the client's certificate (mTLS principals) and
// address (ACL hosts), as a broker facing the client would see them. The
// proxy registers each upstream connection here by its local port, which is
// the broker socket's remote port; both live in one process.
import type { X509Certificate } from 'node:crypto';

export interface ProxiedPeer {
  /** The client's address (InetAddress.getHostAddress). */
  readonly address: string;
  /** The client's TLS certificate, when it presented one. */
  readonly certificate: X509Certificate | null;
}

export class ProxiedPeers {
  private readonly byPort = new Map<number, ProxiedPeer>();

  register(localPort: number, peer: ProxiedPeer): void {
    this.byPort.set(localPort, peer);
  }

  unregister(localPort: number): void {
    this.byPort.delete(localPort);
  }

  /** The client behind a broker socket whose remote port is `remotePort`, if the proxy opened it. */
  get(remotePort: number | undefined): ProxiedPeer | undefined {
    return remotePort === undefined ? undefined : this.byPort.get(remotePort);
  }
}
