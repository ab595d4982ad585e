// How the samples runner reads markdown: fences with their language, the
// marker right before a fence (blank lines between allowed), indented
// fences (in lists), and an unclosed fence as an error.
import { markerList, samplesOf } from './samples.js';

test('fences, languages, markers and indentation', () => {
  const md = [
    '# T',
    '```sh',
    'echo a',
    '```',
    'text',
    '<!-- sample: not-run (needs a GPU) -->',
    '',
    '```',
    'output',
    '```',
    '- item',
    '',
    '  <!-- sample: github-actions skip="npm ci; npm test" -->',
    '  ```yaml',
    '  a: 1',
    '    b: 2',
    '  ```',
    '<!-- a comment, not a marker -->',
    '````json',
    '{ "x": "```" }',
    '````',
  ].join('\n');
  expect(samplesOf('d.md', md)).toEqual([
    { doc: 'd.md', line: 2, lang: 'sh', code: 'echo a' },
    { doc: 'd.md', line: 8, lang: '', code: 'output', marker: { kind: 'not-run', args: '(needs a GPU)' } },
    { doc: 'd.md', line: 14, lang: 'yaml', code: 'a: 1\n  b: 2', marker: { kind: 'github-actions', args: 'skip="npm ci; npm test"' } },
    { doc: 'd.md', line: 19, lang: 'json', code: '{ "x": "```" }' },
  ]);
  expect(markerList('skip="npm ci; npm test"', 'skip')).toEqual(['npm ci', 'npm test']);
  expect(markerList('', 'skip')).toEqual([]);
});

test('an unclosed fence is an error naming the line', () => {
  expect(() => samplesOf('d.md', 'a\n```js\nconst x = 1;\n')).toThrow('d.md:2: the fence is never closed');
});
