// The audit's input checked field by field: a bad item is refused with its
// path (`processed[3].offset`) and why, before anything is read.
import { JsonSpanList } from './compact-body.js';
import { AuditInputError } from './input-error.js';
import type { AcknowledgedItem, CheckedAuditInput, IdFrom, ItemList, ProcessedItem, SentItem } from './types.js';

export { AuditInputError };

const fail = (field: string, reason: string): never => {
  throw new AuditInputError(field, reason);
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function only(o: Record<string, unknown>, field: string, allowed: readonly string[]): void {
  for (const k of Object.keys(o)) if (!allowed.includes(k)) fail(`${field}.${k}`, `unknown field (expected ${allowed.join(', ')})`);
}

function idFromOf(v: unknown, allowFunction: boolean): IdFrom {
  if (v === undefined || v === 'key') return 'key';
  if (typeof v === 'function') {
    if (!allowFunction) fail('idFrom', "a function works in process only; over HTTP use 'key' or { header: name }");
    return v as IdFrom;
  }
  if (isObject(v)) {
    only(v, 'idFrom', ['header']);
    if (typeof v.header === 'string' && v.header !== '') return { header: v.header };
    fail('idFrom.header', 'expected a header name');
  }
  return fail('idFrom', `expected 'key', { header: name }${allowFunction ? ' or a function of the record' : ''}, got ${JSON.stringify(v)}`);
}

const whole = (v: unknown) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

function processedItem(v: unknown, i: number): ProcessedItem {
  const field = `processed[${i}]`;
  if (typeof v === 'string') return v;
  if (!isObject(v)) return fail(field, 'expected an id (string) or { topic, partition, offset, id?, consumer? }');
  only(v, field, ['topic', 'partition', 'offset', 'id', 'consumer']);
  if (typeof v.topic !== 'string' || v.topic === '') fail(`${field}.topic`, 'expected the topic name');
  if (!whole(v.partition)) fail(`${field}.partition`, 'expected a whole number >= 0');
  if (!whole(v.offset)) fail(`${field}.offset`, 'expected a whole number >= 0');
  if (v.id !== undefined && typeof v.id !== 'string') fail(`${field}.id`, 'expected a string');
  if (v.consumer !== undefined && typeof v.consumer !== 'string') fail(`${field}.consumer`, 'expected a string');
  return v as unknown as ProcessedItem;
}

function sentItem(v: unknown, i: number): SentItem {
  const field = `sent[${i}]`;
  if (typeof v === 'string') return v;
  if (!isObject(v)) return fail(field, 'expected an id (string) or { id, producer? }');
  only(v, field, ['id', 'producer']);
  if (typeof v.id !== 'string') fail(`${field}.id`, 'expected a string');
  if (v.producer !== undefined && typeof v.producer !== 'string') fail(`${field}.producer`, 'expected a string');
  return v as unknown as SentItem;
}

function acknowledgedItem(v: unknown, i: number): AcknowledgedItem {
  const field = `acknowledged[${i}]`;
  if (typeof v === 'string') return v;
  if (!isObject(v)) return fail(field, 'expected an id (string) or { id, topic?, partition?, offset?, producer? }');
  only(v, field, ['id', 'topic', 'partition', 'offset', 'producer']);
  if (typeof v.id !== 'string') fail(`${field}.id`, 'expected a string');
  if (v.topic !== undefined && (typeof v.topic !== 'string' || v.topic === '')) fail(`${field}.topic`, 'expected the topic name');
  if (v.partition !== undefined && !whole(v.partition)) fail(`${field}.partition`, 'expected a whole number >= 0');
  if (v.partition !== undefined && v.topic === undefined) fail(`${field}.partition`, 'needs topic');
  if (v.offset !== undefined && !whole(v.offset)) fail(`${field}.offset`, 'expected a whole number >= 0');
  if (v.offset !== undefined && v.partition === undefined) fail(`${field}.offset`, 'needs topic and partition');
  if (v.producer !== undefined && typeof v.producer !== 'string') fail(`${field}.producer`, 'expected a string');
  return v as unknown as AcknowledgedItem;
}

/** An array, or a list read from the body's bytes (compact-body.ts). */
const isList = (v: unknown): v is ItemList<unknown> => Array.isArray(v) || (typeof v === 'object' && v !== null && typeof (v as ItemList<unknown>).at === 'function' && typeof (v as ItemList<unknown>).length === 'number');

/** The list itself once every item passed (a report of millions of ids is not copied). */
function checkedList<T>(list: ItemList<unknown>, item: (v: unknown, i: number) => T): ItemList<T> {
  const spans = list instanceof JsonSpanList ? list : undefined;
  for (let i = 0; i < list.length; i++) if (!spans?.isPlainString(i)) item(list.at(i), i);
  return list as ItemList<T>;
}

/** The input, checked; `allowFunction` is false over HTTP. */
export function validateAuditInput(input: unknown, allowFunction = true): CheckedAuditInput {
  if (!isObject(input)) return fail('body', 'expected { topics?, idFrom?, processed, sent?, acknowledged? }');
  only(input, 'body', ['topics', 'idFrom', 'processed', 'sent', 'acknowledged']);
  const { topics, processed, sent, acknowledged } = input;
  if (topics !== undefined) {
    if (!Array.isArray(topics)) fail('topics', 'expected a list of topic names');
    (topics as unknown[]).forEach((t, i) => typeof t === 'string' && t !== '' || fail(`topics[${i}]`, 'expected a topic name'));
  }
  if (!isList(processed)) fail('processed', 'expected the list of processed ids or records, in processing order');
  if (sent !== undefined && !isList(sent)) fail('sent', 'expected the list of sent ids, in sending order');
  if (acknowledged !== undefined && !isList(acknowledged)) fail('acknowledged', 'expected the list of ids the producers were told were written');
  return {
    ...(topics !== undefined ? { topics: topics as string[] } : {}),
    idFrom: idFromOf(input.idFrom, allowFunction),
    processed: checkedList(processed as ItemList<unknown>, processedItem),
    ...(sent !== undefined ? { sent: checkedList(sent as ItemList<unknown>, sentItem) } : {}),
    ...(acknowledged !== undefined ? { acknowledged: checkedList(acknowledged as ItemList<unknown>, acknowledgedItem) } : {}),
  };
}
