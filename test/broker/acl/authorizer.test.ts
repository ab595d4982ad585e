// The authorizer's rules, as StandardAuthorizerData and the filter classes
// state them: super users, allow.everyone.if.no.acl.found, DENY before
// ALLOW, literal, wildcard and prefixed patterns, implied operations,
// principal and host wildcards, authorizeByResourceType (KIP-679), and the
// DescribeAcls/DeleteAcls filter semantics (ANY, MATCH).
import { Authorizer, bindingOf, type AclSpec } from '../../../src/broker/acl/authorizer.js';
import { filterMatches } from '../../../src/broker/acl/acl-filter.js';
import { AclOperation as Op, AclPermissionType, PatternType, ResourceType, type AclBindingFilter } from '../../../src/broker/acl/acl-types.js';

const alice = { principal: 'User:alice', host: '10.0.0.1' };
const bob = { principal: 'User:bob', host: '10.0.0.2' };
const topicAcl = (resourceName: string, operation: AclSpec['operation'], more: Partial<AclSpec> = {}): AclSpec => ({ resourceType: 'TOPIC', resourceName, principal: 'User:alice', operation, ...more });
const can = (a: Authorizer, who: typeof alice, op: number, name: string, type: number = ResourceType.TOPIC) => a.authorize(who, op, type, name);

test('super users may do anything, even against a DENY', () => {
  const a = new Authorizer({ superUsers: ['User:admin'], acls: [topicAcl('t', 'ALL', { principal: 'User:*', permissionType: 'DENY' })] });
  expect(can(a, { principal: 'User:admin', host: '1.1.1.1' }, Op.WRITE, 't')).toBe(true);
  expect(can(a, alice, Op.WRITE, 't')).toBe(false);
});

test('no ACL on a resource: allow.everyone.if.no.acl.found decides; any ACL on it, for anyone, takes that away', () => {
  expect(can(new Authorizer({}), alice, Op.READ, 't')).toBe(false);
  const open = new Authorizer({ allowEveryoneIfNoAclFound: true, acls: [topicAcl('bobs', 'READ', { principal: 'User:bob' })] });
  expect(can(open, alice, Op.READ, 't')).toBe(true);
  expect(can(open, alice, Op.READ, 'bobs')).toBe(false);
  expect(can(open, bob, Op.READ, 'bobs')).toBe(true);
});

test('literal, wildcard and prefixed patterns', () => {
  const a = new Authorizer({ acls: [topicAcl('orders', 'READ'), topicAcl('logs-', 'READ', { patternType: 'PREFIXED' }), topicAcl('*', 'WRITE')] });
  expect(can(a, alice, Op.READ, 'orders')).toBe(true);
  expect(can(a, alice, Op.READ, 'orders2')).toBe(false);
  expect(can(a, alice, Op.READ, 'logs-eu')).toBe(true);
  expect(can(a, alice, Op.READ, 'logs')).toBe(false);
  expect(can(a, alice, Op.WRITE, 'anything')).toBe(true);
  // A literal '*' is no wildcard for a prefixed ACL's point of view: 'x*' prefix matches only names starting with it.
  expect(can(new Authorizer({ acls: [topicAcl('*', 'READ', { patternType: 'PREFIXED' })] }), alice, Op.READ, 'orders')).toBe(false);
});

test('DENY beats ALLOW wherever it comes from; ALL covers every operation', () => {
  const a = new Authorizer({ acls: [topicAcl('orders', 'ALL', { patternType: 'PREFIXED' }), topicAcl('orders-eu', 'WRITE', { permissionType: 'DENY' })] });
  expect(can(a, alice, Op.WRITE, 'orders-us')).toBe(true);
  expect(can(a, alice, Op.WRITE, 'orders-eu')).toBe(false);
  expect(can(a, alice, Op.READ, 'orders-eu')).toBe(true);
  const star = new Authorizer({ acls: [topicAcl('orders', 'READ'), topicAcl('*', 'ALL', { principal: 'User:*', permissionType: 'DENY' })] });
  expect(can(star, alice, Op.READ, 'orders')).toBe(false);
});

test('ALLOW of READ, WRITE, DELETE or ALTER implies DESCRIBE; ALTER_CONFIGS implies DESCRIBE_CONFIGS; DENY implies nothing', () => {
  for (const op of ['READ', 'WRITE', 'DELETE', 'ALTER'] as const) expect(can(new Authorizer({ acls: [topicAcl('t', op)] }), alice, Op.DESCRIBE, 't')).toBe(true);
  expect(can(new Authorizer({ acls: [topicAcl('t', 'CREATE')] }), alice, Op.DESCRIBE, 't')).toBe(false);
  expect(can(new Authorizer({ acls: [topicAcl('t', 'ALTER_CONFIGS')] }), alice, Op.DESCRIBE_CONFIGS, 't')).toBe(true);
  expect(can(new Authorizer({ acls: [topicAcl('t', 'ALTER')] }), alice, Op.DESCRIBE_CONFIGS, 't')).toBe(false);
  const denyRead = new Authorizer({ acls: [topicAcl('t', 'DESCRIBE'), topicAcl('t', 'READ', { permissionType: 'DENY' })] });
  expect(can(denyRead, alice, Op.DESCRIBE, 't')).toBe(true);
  expect(can(denyRead, alice, Op.READ, 't')).toBe(false);
});

test("principal User:* and host '*' match everyone; other hosts and principals do not", () => {
  const a = new Authorizer({ acls: [topicAcl('t', 'READ', { principal: 'User:*', host: '10.0.0.1' })] });
  expect(can(a, alice, Op.READ, 't')).toBe(true);
  expect(can(a, bob, Op.READ, 't')).toBe(false); // bob's host differs
  expect(can(a, { principal: 'User:carol', host: '10.0.0.1' }, Op.READ, 't')).toBe(true);
});

test('authorizedOperations is the bit field of the allowed supported operations', () => {
  const a = new Authorizer({ acls: [topicAcl('t', 'READ'), topicAcl('t', 'WRITE')] });
  expect(a.authorizedOperations(alice, ResourceType.TOPIC, 't')).toBe((1 << Op.READ) | (1 << Op.WRITE) | (1 << Op.DESCRIBE));
  expect(a.authorizedOperations(bob, ResourceType.TOPIC, 't')).toBe(0);
});

test('authorizeByResourceType: some ALLOW of the operation that no DENY dominates (Authorizer#authorizeByResourceType)', () => {
  const by = (acls: AclSpec[], who = alice) => new Authorizer({ acls }).authorizeByResourceType(who, Op.WRITE, ResourceType.TOPIC);
  expect(by([])).toBe(false);
  expect(by([topicAcl('t', 'WRITE')])).toBe(true);
  expect(by([topicAcl('t', 'READ')])).toBe(false); // no implied operations here
  expect(by([topicAcl('t', 'WRITE'), topicAcl('t', 'WRITE', { permissionType: 'DENY' })])).toBe(false);
  expect(by([topicAcl('abc', 'WRITE'), topicAcl('ab', 'WRITE', { permissionType: 'DENY', patternType: 'PREFIXED' })])).toBe(false);
  expect(by([topicAcl('abc', 'WRITE', { patternType: 'PREFIXED' }), topicAcl('abcd', 'WRITE', { permissionType: 'DENY', patternType: 'PREFIXED' })])).toBe(true);
  expect(by([topicAcl('*', 'WRITE'), topicAcl('x', 'WRITE', { permissionType: 'DENY' })])).toBe(true);
  expect(by([topicAcl('x', 'WRITE'), topicAcl('*', 'WRITE', { permissionType: 'DENY' })])).toBe(false);
  expect(new Authorizer({ allowEveryoneIfNoAclFound: true }).authorizeByResourceType(alice, Op.WRITE, ResourceType.TOPIC)).toBe(true);
});

test('CreateAcls checks each ACL and stores it once; DeleteAcls reports every filter match against the ACLs before the request', () => {
  const a = new Authorizer({});
  const ok = bindingOf(topicAcl('t', 'READ'));
  const results = a.createAcls([
    ok,
    ok,
    { ...ok, resourceType: ResourceType.CLUSTER, resourceName: 'cluster' },
    { ...ok, resourceName: '' },
    { ...ok, resourceType: ResourceType.ANY },
    { ...ok, patternType: PatternType.MATCH },
    { ...ok, operation: Op.ANY },
    { ...ok, permissionType: AclPermissionType.ANY },
  ]);
  expect(results).toEqual([
    { error: 'NONE', message: null },
    { error: 'NONE', message: null },
    { error: 'INVALID_REQUEST', message: 'The only valid name for the CLUSTER resource is kafka-cluster' },
    { error: 'INVALID_REQUEST', message: 'Invalid empty resource name' },
    { error: 'INVALID_REQUEST', message: 'Invalid resourceType ANY' },
    { error: 'INVALID_REQUEST', message: 'Invalid patternType MATCH' },
    { error: 'INVALID_REQUEST', message: 'Invalid operation ANY' },
    { error: 'INVALID_REQUEST', message: 'Invalid permissionType ANY' },
  ]);
  expect(a.size).toBe(1);
  const any: AclBindingFilter = { resourceType: ResourceType.ANY, resourceName: null, patternType: PatternType.ANY, principal: null, host: null, operation: Op.ANY, permissionType: AclPermissionType.ANY };
  expect(a.deleteAcls([any, { ...any, resourceName: 't' }]).map((m) => m.length)).toEqual([1, 1]);
  expect(a.size).toBe(0);
});

test('filters: ANY takes every pattern type with the exact name, MATCH the patterns that apply to the name', () => {
  const literal = bindingOf(topicAcl('orders-eu', 'READ'));
  const wildcard = bindingOf(topicAcl('*', 'READ'));
  const prefixed = bindingOf(topicAcl('orders-', 'READ', { patternType: 'PREFIXED' }));
  const f = (patternType: number, resourceName: string | null): AclBindingFilter => ({ resourceType: ResourceType.TOPIC, resourceName, patternType, principal: null, host: null, operation: Op.ANY, permissionType: AclPermissionType.ANY });
  const matching = (filter: AclBindingFilter) => [literal, wildcard, prefixed].filter((b) => filterMatches(filter, b)).map((b) => b.resourceName);
  expect(matching(f(PatternType.MATCH, 'orders-eu'))).toEqual(['orders-eu', '*', 'orders-']);
  expect(matching(f(PatternType.ANY, 'orders-eu'))).toEqual(['orders-eu']);
  expect(matching(f(PatternType.ANY, 'orders-'))).toEqual(['orders-']);
  expect(matching(f(PatternType.LITERAL, null))).toEqual(['orders-eu', '*']);
  expect(matching(f(PatternType.PREFIXED, null))).toEqual(['orders-']);
  expect(matching({ ...f(PatternType.ANY, null), principal: 'User:*' })).toEqual([]); // '*' is no wildcard in a filter
  expect(matching({ ...f(PatternType.ANY, null), operation: Op.WRITE })).toEqual([]);
});
