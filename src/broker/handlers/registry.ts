// The handler registry is the source of truth for what this broker serves:
// ApiVersions is computed from it, and a key registered twice is a bug.
import type { ApiHandler } from './handler.js';

export class HandlerRegistry {
  private readonly handlers = new Map<number, ApiHandler>();

  constructor(handlers: readonly ApiHandler[] = []) {
    for (const h of handlers) this.register(h);
  }

  register(handler: ApiHandler): void {
    const key = handler.api.apiKey;
    if (this.handlers.has(key)) throw new Error(`a handler for ${handler.api.name} (key ${key}) is already registered`);
    if (handler.minVersion < handler.api.minVersion || handler.maxVersion > handler.api.maxVersion) {
      throw new Error(`${handler.api.name} handler serves versions outside the schema's ${handler.api.minVersion}-${handler.api.maxVersion}`);
    }
    this.handlers.set(key, handler);
  }

  get(apiKey: number): ApiHandler | undefined {
    return this.handlers.get(apiKey);
  }

  supports(apiKey: number, version: number): boolean {
    const h = this.handlers.get(apiKey);
    return !!h && version >= h.minVersion && version <= h.maxVersion;
  }

  /** Every served API with its version range, by api key. */
  versions(): { apiKey: number; minVersion: number; maxVersion: number }[] {
    return [...this.handlers.values()]
      .map((h) => ({ apiKey: h.api.apiKey, minVersion: h.minVersion, maxVersion: h.maxVersion }))
      .sort((a, b) => a.apiKey - b.apiKey);
  }
}
