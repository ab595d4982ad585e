// TypeScript under @swc/jest, compiled to CommonJS (its default).
module.exports = {
  preset: 'kafkaesque',
  transform: { '^.+\\.ts$': '@swc/jest' },
  globals: { kafkaesque: { brokers: 1 } },
};
