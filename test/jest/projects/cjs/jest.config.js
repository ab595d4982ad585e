// A default CommonJS jest config: babel-jest, no flags.
module.exports = {
  preset: 'kafkaesque',
  globals: { kafkaesque: { brokers: 1, groupInitialRebalanceDelayMs: 0 } },
};
