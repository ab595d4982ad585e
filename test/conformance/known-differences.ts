// Differences between kafkaesque and the real broker that are known and
// kept, each with its reason (docs/unsupported.md lists them too). A key is
// `<sequence id> / <step label> / <field path>`; a path ending in `*` covers
// everything under it. A difference found and not listed here fails the suite.
export const KNOWN_DIFFERENCES: ReadonlyMap<string, string> = new Map<string, string>([]);

export function knownReason(sequence: string, step: string, path: string): string | undefined {
  const key = `${sequence} / ${step} / ${path}`;
  for (const [k, reason] of KNOWN_DIFFERENCES) {
    if (k === key || (k.endsWith('*') && key.startsWith(k.slice(0, -1)))) return reason;
  }
  return undefined;
}
