// npm test passes --forceExit: once, under CPU load, Node 20 spun in its exit
// cleanup after all tests passed (two TCP handles still referenced); a CI run
// must not hang for that. Jest still prints a warning when handles remain.
//
// ESM throughout (yargs 18 and get-port 7 are ESM-only): jest runs with
// --experimental-vm-modules and @swc/jest strips the types, keeping `import`.
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'es6' } }],
  },
  // Sources import './x.js' as NodeNext requires; map back to the .ts file.
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  // User projects that test/jest/runners.test.ts runs with their own runner.
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/jest/projects/'],
  testTimeout: 30000,
};
