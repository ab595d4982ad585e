// Differences between kafkaesque and the real broker that are known and
// kept, each with its reason; docs/unsupported.md ("Differences the
// conformance suite shows") lists them too. A pattern matches
// `<sequence id> / <step label> / <field path>`, `*` standing for anything.
// A difference found and not matched here fails the suite.
const NOT_YET_SERVED = 'an API (or a newer version of one) kafkaesque does not serve: docs/unsupported.md#apis-not-served';

export const KNOWN_DIFFERENCES: readonly (readonly [pattern: string, reason: string])[] = [
  ['* / *configs.flush.messages.configSource', 'scripts/real-kafka.mjs sets log.flush.interval.messages in server.properties, as Testcontainers does, so the real broker reports it STATIC_BROKER_CONFIG (4); the value is the same'],
  ['describe-configs / topic with an override, synonyms / *synonyms*', 'kafkaesque answers no config synonyms (docs/unsupported.md, "Config synonyms and documentation")'],
  ['describe-configs / broker, named configs / *configs.*.configSource', 'kafkaesque reports every broker config as STATIC_BROKER_CONFIG (4): its options are its server.properties; Kafka says DEFAULT_CONFIG (5) for those its properties file does not set'],
  ['describe-configs / unknown topic / results[0].errorMessage', 'kafkaesque says which topic is unknown; Kafka answers the error code alone (clients show either)'],
  ['create-topics / CreatePartitions unknown topic / results[0].errorMessage', 'kafkaesque says which topic is unknown; Kafka answers the error code alone (clients show either)'],
  ['api-versions / * / apiKeys.*.maxVersion', NOT_YET_SERVED],
  ['api-versions / * / apiKeys.*', NOT_YET_SERVED],
  ['api-versions / * / supportedFeatures*', 'kafkaesque advertises no features: finalizing transaction.version 2 would make a 4.x client use KIP-890 part 2 (EndTxn v5, epoch bump per transaction), which it does not serve; metadata.version and group.version are KRaft and KIP-848 state it does not model'],
  ['api-versions / * / finalizedFeatures*', 'as supportedFeatures'],
];

const compiled = KNOWN_DIFFERENCES.map(([pattern, reason]) => ({
  re: new RegExp(`^${pattern.split('*').map((part) => part.replace(/[.?+^$()[\]{}|\\]/g, '\\$&')).join('.*')}$`),
  reason,
}));

export function knownReason(sequence: string, step: string, path: string): string | undefined {
  const key = `${sequence} / ${step} / ${path}`;
  return compiled.find((c) => c.re.test(key))?.reason;
}
