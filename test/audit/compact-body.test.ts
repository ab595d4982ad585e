// The audit's HTTP body read compactly (compact-body.ts): the lists stay in
// the body's bytes and read back as JSON.parse would have read them.
import { JsonSpanList, parseAuditBody } from '../../src/audit/compact-body.js';
import { AuditInputError, validateAuditInput } from '../../src/audit/validate.js';

const parse = (text: string) => parseAuditBody(Buffer.from(text));
const items = (list: unknown) => Array.from({ length: (list as JsonSpanList).length }, (_, i) => (list as JsonSpanList).at(i));

test('lists read back item by item as JSON.parse reads them; other fields are parsed as usual', () => {
  const body = {
    topics: ['orders', 'refunds'],
    idFrom: { header: 'id' },
    processed: ['a', 'with "quote" and \\ back', 'üñí©ødé', { topic: 'orders', partition: 0, offset: 3, consumer: 'c1' }, '', 'x,]}'],
    sent: [{ id: 'a', producer: 'p' }, 'b'],
  };
  const parsed = parse(`  ${JSON.stringify(body, null, 2)}\n`) as Record<string, unknown>;
  expect(parsed.topics).toEqual(body.topics);
  expect(parsed.idFrom).toEqual(body.idFrom);
  expect(parsed.processed).toBeInstanceOf(JsonSpanList);
  expect(items(parsed.processed)).toEqual(body.processed);
  expect(items(parsed.sent)).toEqual(body.sent);
  expect((parsed.processed as JsonSpanList).at(99)).toBeUndefined();
  expect(items(parse('{"processed":[]}') as never)).toEqual([]);
  expect(items((parse('{"processed":[ ]}') as { processed: unknown }).processed)).toEqual([]);
  expect(parse('')).toBeUndefined();
  expect(parse('[1]')).toEqual([1]);
  expect(Object.keys(parse('{"__proto__":1}') as object)).toEqual(['__proto__']);
});

test('a list of many ids grows its spans', () => {
  const ids = Array.from({ length: 5000 }, (_, i) => `id-${i}`);
  const list = (parse(JSON.stringify({ processed: ids })) as { processed: JsonSpanList }).processed;
  expect(list.length).toBe(5000);
  expect(list.at(4999)).toBe('id-4999');
  expect(list.isPlainString(0)).toBe(true);
});

test('a body that is not JSON is a SyntaxError; an item that is not is refused naming it', () => {
  for (const bad of ['{', '{"processed":["a"', '{"processed":["a" "b"]}', '{"processed":[1,]', '{"a":1} x', '{"processed":["a"]', '{processed:[]}']) expect(() => parse(bad)).toThrow(SyntaxError);
  const parsed = parse('{"processed":["a", tru, {"topic":}]}');
  let refused: unknown;
  try {
    validateAuditInput(parsed, false);
  } catch (err) {
    refused = err;
  }
  expect(refused).toBeInstanceOf(AuditInputError);
  expect((refused as AuditInputError).field).toBe('processed[1]');
  expect(() => validateAuditInput(parse('{"processed":["a", {"topic":"t","partition":-1,"offset":0}]}'), false)).toThrow('audit input: processed[1].partition: expected a whole number >= 0');
});
