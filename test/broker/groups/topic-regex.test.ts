// The subscription regex as RE2/J would read it: whole-name matches, RE2's
// syntax translated, and what RE2 refuses refused (INVALID_REGULAR_EXPRESSION).
import { compileTopicRegex, InvalidTopicRegex } from '../../../src/broker/groups/topic-regex.js';

const matches = (regex: string, name: string) => compileTopicRegex(regex).test(name);

test.each([
  ['orders.*', 'orders-eu', true],
  ['orders', 'my-orders', false],
  ['orders', 'orders-eu', false],
  ['a|b', 'b', true],
  ['(?i)ORDERS', 'orders', true],
  ['(?P<region>eu|us)-orders', 'us-orders', true],
  ['\\Qa.b\\E', 'a.b', true],
  ['\\Qa.b\\E', 'axb', false],
  ['\\Qx-y\\E.*', 'x-y1', true],
  ['a\\-b', 'a-b', true],
  ['[a\\-c]x', '-x', true],
  ['\\Aorders\\z', 'orders', true],
  ['t\\d+', 't42', true],
])('%s against %s: %s', (regex, name, expected) => {
  expect(matches(regex, name)).toBe(expected);
});

test.each(['(', '[a', '(?=a)a', '(?!a)b', '(?<=a)b', '(?<!a)b', '(a)\\1', '(?<n>a)\\k<n>', 'a\\'])('%s is refused as RE2 refuses it', (regex) => {
  expect(() => compileTopicRegex(regex)).toThrow(InvalidTopicRegex);
});

test.each([
  ['(conf', 'missing closing )'],
  ['conf)', 'unexpected )'],
  ['[conf', 'missing closing ]'],
  ['*conf', 'missing argument to repetition operator'],
  ['[z-a]', 'invalid character class range'],
  ['(?=conf)conf', 'invalid or unsupported Perl syntax'],
  ['(a)\\1', 'invalid escape sequence'],
  ['conf\\', 'trailing backslash at end of expression'],
])('%s: RE2/J says "%s"', (regex, description) => {
  expect(() => compileTopicRegex(regex)).toThrow(new InvalidTopicRegex(description));
});
