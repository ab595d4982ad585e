// The first lines of every file scripts/bundle-lib.mjs writes: the require()
// that Node's built-ins are loaded with (an ES module has none).
// scripts/build-cjs.mjs takes them off again for the CommonJS copies.
export const BANNER = "import { createRequire as __kafkaesqueCreateRequire } from 'node:module';\nconst require = __kafkaesqueCreateRequire(import.meta.url);\n";
