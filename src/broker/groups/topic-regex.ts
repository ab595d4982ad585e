// A KIP-848 subscription's regular expression (ConsumerGroupHeartbeat v1
// SubscribedTopicRegex) as the coordinator reads it. Kafka compiles it with
// RE2/J (com.google.re2j.Pattern) and a topic is subscribed when the whole
// name matches (Matcher#matches). JavaScript's RegExp is close, so the
// pattern is translated where RE2 syntax differs, and refused where RE2
// refuses what JavaScript accepts, so that INVALID_REGULAR_EXPRESSION is
// answered for the same patterns:
// - refused: lookaround ((?=, (?!, (?<=, (?<!) and backreferences (\1, \k<n>),
//   which RE2 does not have;
// - translated: leading flag groups (?i) (?s) (?m), named groups (?P<n>...),
//   \A and \z, \Q...\E literals, and escaped punctuation (RE2 allows \ before
//   any punctuation, JavaScript's unicode mode only before syntax characters).
// Not covered (documented in docs/unsupported.md): POSIX classes such as
// [[:alpha:]], inline flags after the start, the ungreedy flag (?U).

/** Thrown with RE2/J's description of what is wrong (PatternSyntaxException#getDescription), as Kafka's message carries it. */
export class InvalidTopicRegex extends Error {}

/** V8's RegExp complaints as RE2's error codes describe the same mistakes (regexp/syntax ErrorCode). */
const RE2_DESCRIPTIONS: [RegExp, string][] = [
  [/Unterminated group/, 'missing closing )'],
  [/Unmatched '\)'/, 'unexpected )'],
  [/Unterminated character class|Lone quantifier brackets/, 'missing closing ]'],
  [/Nothing to repeat/, 'missing argument to repetition operator'],
  [/Range out of order/, 'invalid character class range'],
  [/numbers out of order|Incomplete quantifier/, 'invalid repeat count'],
  [/Invalid (capture )?group name|Duplicate capture group name/, 'invalid named capture'],
  [/escape/i, 'invalid escape sequence'],
  [/Invalid group/, 'invalid or unsupported Perl syntax'],
];

const JS_SYNTAX = new Set('^$\\.*+?()[]{}|/');
const PUNCT = /[!-/:-@[-`{-~]/;

/** The JavaScript equivalent of an RE2 pattern, anchored to the whole name; throws InvalidTopicRegex with RE2's kind of reason. */
export function compileTopicRegex(pattern: string): RegExp {
  let flags = 'u';
  let rest = pattern;
  const lead = /^\(\?([ism]+)\)/.exec(rest);
  if (lead) {
    flags += [...new Set(lead[1])].join('');
    rest = rest.slice(lead[0].length);
  }
  let out = '';
  for (let i = 0; i < rest.length; i++) {
    const c = rest[i]!;
    if (c === '(' && rest[i + 1] === '?') {
      const head = rest.slice(i, i + 4);
      if (head.startsWith('(?=') || head.startsWith('(?!') || head.startsWith('(?<=') || head.startsWith('(?<!')) {
        throw new InvalidTopicRegex('invalid or unsupported Perl syntax');
      }
      if (head.startsWith('(?P<')) {
        out += '(?<';
        i += 3;
        continue;
      }
    }
    if (c !== '\\') {
      out += c;
      continue;
    }
    const next = rest[i + 1];
    if (next === undefined) throw new InvalidTopicRegex('trailing backslash at end of expression');
    i++;
    if (/[1-9]/.test(next) || next === 'k') throw new InvalidTopicRegex('invalid escape sequence');
    if (next === 'A') out += '^';
    else if (next === 'z') out += '$';
    else if (next === 'Q') {
      const end = rest.indexOf('\\E', i + 1);
      const literal = end < 0 ? rest.slice(i + 1) : rest.slice(i + 1, end);
      out += literal.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&').replace(/-/g, '\\x2d');
      i = end < 0 ? rest.length : end + 1;
    } else if (PUNCT.test(next) && !JS_SYNTAX.has(next)) out += `\\x${next.charCodeAt(0).toString(16).padStart(2, '0')}`;
    else out += `\\${next}`;
  }
  try {
    return new RegExp(`^(?:${out})$`, flags);
  } catch (e) {
    const message = (e as Error).message;
    throw new InvalidTopicRegex(RE2_DESCRIPTIONS.find(([v8]) => v8.test(message))?.[1] ?? message.replace(/^Invalid regular expression: \/.*\/\w*: /, ''));
  }
}
