// The fenced code blocks of the docs, with the marker (if any) written right
// before each: `<!-- sample: KIND ... -->`. Which blocks run how is decided
// in samples.test.ts; this file only reads the markdown.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export interface Marker {
  kind: string;
  /** What follows the kind, e.g. `(output listing)` or `skip="npm ci; npm test"`. */
  args: string;
}

export interface Sample {
  /** The markdown file, relative to the repo. */
  doc: string;
  /** Line of the opening fence (1-based). */
  line: number;
  /** The fence's info string's first word, lower-cased ('' when none). */
  lang: string;
  code: string;
  marker?: Marker;
}

const FENCE = /^(\s*)(`{3,}|~{3,})\s*([^\s`]*)/;
const MARKER = /^<!--\s*sample:\s*([a-z][a-z-]*)\s*(.*?)\s*-->$/;

/** Every fenced block of one markdown text. An unclosed fence is an error: the doc is broken. */
export function samplesOf(doc: string, text: string): Sample[] {
  const lines = text.split('\n');
  const out: Sample[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]!);
    if (!open) continue;
    const [, indent, fence, info] = open;
    const close = lines.findIndex((l, j) => j > i && l.trim().startsWith(fence!) && l.trim().replace(/[`~]/g, '') === '');
    if (close < 0) throw new Error(`${doc}:${i + 1}: the fence is never closed`);
    let k = i - 1;
    while (k >= 0 && lines[k]!.trim() === '') k--;
    const m = k >= 0 ? MARKER.exec(lines[k]!.trim()) : null;
    const sample: Sample = {
      doc,
      line: i + 1,
      lang: info!.toLowerCase(),
      code: lines.slice(i + 1, close).map((l) => (l.startsWith(indent!) ? l.slice(indent!.length) : l)).join('\n'),
    };
    if (m) sample.marker = { kind: m[1]!, args: m[2]! };
    out.push(sample);
    i = close;
  }
  return out;
}

/** Every `*.md` under `dir` (recursively), except under the folders named in `exclude`; sorted. */
export function markdownFiles(root: string, dir: string, exclude: string[]): string[] {
  const walk = (d: string): string[] =>
    readdirSync(d)
      .sort()
      .flatMap((name) => {
        const path = join(d, name);
        const rel = relative(root, path);
        if (exclude.some((e) => rel === e || rel.startsWith(`${e}/`))) return [];
        if (statSync(path).isDirectory()) return walk(path);
        return name.endsWith('.md') ? [rel] : [];
      });
  return walk(join(root, dir));
}

export function docSamples(root: string, doc: string): Sample[] {
  return samplesOf(doc, readFileSync(join(root, doc), 'utf8'));
}

/** `skip="a; b"` → ['a', 'b']. */
export function markerList(args: string, name: string): string[] {
  const m = new RegExp(`${name}="([^"]*)"`).exec(args);
  return m ? m[1]!.split(';').map((s) => s.trim()).filter(Boolean) : [];
}
