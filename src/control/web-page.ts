// The web view's page: one HTML document with its style and script inline
// (built by scripts/bundle-web.mjs into dist/web/), served by the control API
// at / and, with the run's data embedded as JSON, written as the HTML report.
// Inline, so that the page makes no request but the API's and the report
// opens from a file; a Content-Security-Policy that names their hashes lets
// nothing else run, and lets the report reach no network at all.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface WebAssets {
  script: string;
  style: string;
}

/**
 * Where the built page is, from wherever this module runs: dist/control/
 * (ES modules), dist/cjs/control/ (CommonJS), dist/cli.cjs (the bundled
 * CLI), or src/control/ in this repo's own tests (after `npm run build`).
 */
const CANDIDATES = ['../web/', '../../web/', './web/', '../../dist/web/'];

let cached: WebAssets | null = null;

/** The page's script and style; null when they were not built (a checkout without `npm run build`). */
export function webAssets(): WebAssets | null {
  if (cached) return cached;
  for (const dir of CANDIDATES) {
    try {
      const at = (f: string) => fileURLToPath(new URL(`${dir}${f}`, import.meta.url));
      cached = { script: readFileSync(at('app.js'), 'utf8'), style: readFileSync(at('page.css'), 'utf8') };
      return cached;
    } catch {
      // Not there: the next place.
    }
  }
  return null;
}

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/**
 * JSON that is safe inside a <script> element: no `<` (so no `</script>` or
 * `<!--` can end or bend the element), and no U+2028/2029.
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

export interface Page {
  html: string;
  /** The policy to send as a header (the live page); the report carries it in a <meta> element. */
  csp: string;
}

/** The page; with `data`, the report (no network: connect-src 'none'). */
export function renderPage(assets: WebAssets, data?: unknown, title = 'kafkaesque'): Page {
  const report = data !== undefined;
  // The bundle is ours; a `</script` inside it would still end the element early.
  const script = assets.script.replace(/<\/script/gi, '<\\/script');
  const csp = [
    "default-src 'none'",
    `script-src ${sha256(script)}`,
    `style-src ${sha256(assets.style)}`,
    `connect-src ${report ? "'none'" : "'self'"}`,
    "img-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    ...(report ? [] : ["frame-ancestors 'none'"]),
  ].join('; ');
  const escapeText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const html = [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    ...(report ? [`<meta http-equiv="Content-Security-Policy" content="${csp}">`] : []),
    `<title>${escapeText(title)}</title>`,
    `<style>${assets.style}</style>`,
    '</head><body>',
    ...(report ? [`<script type="application/json" id="kafkaesque-data">${scriptJson(data)}</script>`] : []),
    `<script>${script}</script>`,
    '</body></html>',
    '',
  ].join('\n');
  return { html, csp };
}
