// Bundles the web view (src/web/, plain TypeScript and DOM, no framework)
// into one script and copies its style sheet beside it. The control API
// inlines both into the page it serves at / and into the HTML report
// (src/control/web-page.ts), so the page needs no other request.
//
//   dist/web/app.js    the page's script (an IIFE, minified)
//   dist/web/page.css  its style sheet
import { build } from 'esbuild';
import { copyFileSync, mkdirSync } from 'node:fs';

await build({
  entryPoints: ['src/web/app.ts'],
  outfile: 'dist/web/app.js',
  bundle: true,
  platform: 'browser',
  format: 'iife',
  target: 'es2020',
  minify: process.env.KAFKAESQUE_WEB_MINIFY !== '0',
  // A report is opened from CI artifacts for months: no source map to lose.
  sourcemap: false,
  legalComments: 'none',
  logLevel: 'warning',
});
mkdirSync('dist/web', { recursive: true });
copyFileSync('src/web/page.css', 'dist/web/page.css');
