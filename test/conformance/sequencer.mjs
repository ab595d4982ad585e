// The order of a conformance run: the conformance sequences first, on a
// broker nothing else has touched (the capture replays compare all-topics
// Metadata and log start offsets), then the suites that share the broker
// (test/real-kafka/, whose topics would show in those answers).
export default class ConformanceFirst {
  sort(tests) {
    const rank = (t) => (t.path.endsWith('.conformance.ts') ? 0 : 1);
    return [...tests].sort((a, b) => rank(a) - rank(b) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  cacheResults() {}
}
