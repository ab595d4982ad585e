// The library's ways to start something (startCluster, startProxy,
// startControlServer), loaded on first call: the code behind them (the API
// handlers, listeners, connections, the control server's routes) is then
// not parsed at `import('kafkaesque')`, which every test file pays whether it
// starts a cluster or not (issue 21, item 3).
// They return promises anyway, so awaiting the import changes no caller.
import type { KafkaesqueOptions } from './options.js';
import type { RunningCluster } from './start.js';
import type { ProxyOptions, RunningProxy } from './start-proxy.js';
import type { ControlServer, ControlServerOptions } from './control/server.js';
import type { ControlTarget } from './control/target.js';

export type { RunningCluster } from './start.js';
export type { RunningProxy, ProxyOptions } from './start-proxy.js';
export type { ControlServer, ControlServerOptions } from './control/server.js';

/** Starts the in-memory cluster, behind the chaos proxy unless `proxy: false`, and its control API (docs/library.md). */
export async function startCluster(input: Partial<KafkaesqueOptions> = {}): Promise<RunningCluster> {
  return (await import('./start.js')).startCluster(input);
}

/** Starts the chaos proxy in front of `upstream` ("host:port[,host:port…]") and its control API. */
export async function startProxy(input: ProxyOptions): Promise<RunningProxy> {
  return (await import('./start-proxy.js')).startProxy(input);
}

/** Serves the HTTP control API (docs/control-api.md) for a running cluster or proxy. */
export async function startControlServer(target: ControlTarget, options: ControlServerOptions): Promise<ControlServer> {
  return (await import('./control/server.js')).startControlServer(target, options);
}
