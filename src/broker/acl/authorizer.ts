// The authorizer: Kafka's StandardAuthorizer (KRaft) with its ACLs as
// AclControlManager keeps them. Super users are allowed everything; otherwise
// the ACLs on the resource (literal by name, literal '*', prefixed by a
// prefix of the name) that match the principal (or User:*) and host (or *)
// decide: any DENY wins, then any ALLOW; with no ACL on the resource at all,
// allow.everyone.if.no.acl.found decides. ALLOW of READ, WRITE, DELETE or
// ALTER implies DESCRIBE, and ALTER_CONFIGS implies DESCRIBE_CONFIGS
// (StandardAuthorizerData.findResult); DENY implies nothing.
import { filterMatches } from './acl-filter.js';
import {
  AclOperation, AclPermissionType, CLUSTER_NAME, PatternType, ResourceType, SUPPORTED_OPERATIONS, WILDCARD, WILDCARD_PRINCIPAL,
  type AclBinding, type AclBindingFilter, type AclOperationName, type AclPermissionTypeName, type PatternTypeName, type ResourceTypeName,
} from './acl-types.js';
import type { ErrorName } from '../../protocol/errors.js';

/** One ACL as options give it, by name (kafka-acls' words). */
export interface AclSpec {
  resourceType: Exclude<ResourceTypeName, 'UNKNOWN' | 'ANY'>;
  resourceName: string;
  /** Default LITERAL. */
  patternType?: 'LITERAL' | 'PREFIXED';
  /** "User:alice", or "User:*" for every principal. */
  principal: string;
  /** Default "*" (any host). */
  host?: string;
  operation: Exclude<AclOperationName, 'UNKNOWN' | 'ANY'>;
  /** Default ALLOW. */
  permissionType?: 'ALLOW' | 'DENY';
}

export interface AuthorizerOptions {
  /** super.users: principals allowed everything, e.g. ["User:admin"]. */
  superUsers?: string[];
  /** allow.everyone.if.no.acl.found (Kafka's default: false). */
  allowEveryoneIfNoAclFound?: boolean;
  /** ACLs present at start (and again after a reset). */
  acls?: AclSpec[];
}

/** Who is asking: the session's principal and the client's address (InetAddress.getHostAddress). */
export interface Session {
  readonly principal: string;
  readonly host: string;
}

export type AclCreateResult = { error: ErrorName; message: string | null };

const IMPLIES_DESCRIBE = new Set<number>([AclOperation.DESCRIBE, AclOperation.READ, AclOperation.WRITE, AclOperation.DELETE, AclOperation.ALTER]);
const IMPLIES_DESCRIBE_CONFIGS = new Set<number>([AclOperation.DESCRIBE_CONFIGS, AclOperation.ALTER_CONFIGS]);

const nameOf = (table: Record<string, number>, code: number) => Object.keys(table).find((k) => table[k] === code) ?? 'UNKNOWN';

/** The binding an AclSpec names. */
export function bindingOf(spec: AclSpec): AclBinding {
  return {
    resourceType: ResourceType[spec.resourceType],
    resourceName: spec.resourceName,
    patternType: PatternType[spec.patternType ?? 'LITERAL'],
    principal: spec.principal,
    host: spec.host ?? WILDCARD,
    operation: AclOperation[spec.operation],
    permissionType: AclPermissionType[spec.permissionType ?? 'ALLOW'],
  };
}

/** An AclBinding by name, for the control API and logs. */
export function specOf(b: AclBinding): AclSpec {
  return {
    resourceType: nameOf(ResourceType, b.resourceType) as AclSpec['resourceType'],
    resourceName: b.resourceName,
    patternType: nameOf(PatternType, b.patternType) as PatternTypeName as AclSpec['patternType'],
    principal: b.principal,
    host: b.host,
    operation: nameOf(AclOperation, b.operation) as AclSpec['operation'],
    permissionType: nameOf(AclPermissionType, b.permissionType) as AclPermissionTypeName as AclSpec['permissionType'],
  };
}

/** AclApis.handleCreateAcls' checks, then AclControlManager.validateNewAcl's, in their order; null when the ACL may be stored. */
export function invalidAclReason(b: AclBinding): string | null {
  if (b.resourceType === ResourceType.CLUSTER && b.resourceName !== CLUSTER_NAME) return `The only valid name for the CLUSTER resource is ${CLUSTER_NAME}`;
  if (b.resourceName === '') return 'Invalid empty resource name';
  if (b.resourceType === ResourceType.UNKNOWN || b.resourceType === ResourceType.ANY) return `Invalid resourceType ${nameOf(ResourceType, b.resourceType)}`;
  if (b.patternType !== PatternType.LITERAL && b.patternType !== PatternType.PREFIXED) return `Invalid patternType ${nameOf(PatternType, b.patternType)}`;
  if (b.operation === AclOperation.UNKNOWN || b.operation === AclOperation.ANY) return `Invalid operation ${nameOf(AclOperation, b.operation)}`;
  if (b.permissionType !== AclPermissionType.ALLOW && b.permissionType !== AclPermissionType.DENY) return `Invalid permissionType ${nameOf(AclPermissionType, b.permissionType)}`;
  return null;
}

const keyOf = (b: AclBinding) => `${b.resourceType}\u0000${b.resourceName}\u0000${b.patternType}\u0000${b.principal}\u0000${b.host}\u0000${b.operation}\u0000${b.permissionType}`;

export class Authorizer {
  readonly superUsers: ReadonlySet<string>;
  readonly allowEveryoneIfNoAclFound: boolean;
  /** Every ACL, once each (AclControlManager.existingAcls), in the order created. */
  private readonly acls = new Map<string, AclBinding>();
  /** The same ACLs by resource type: what one authorization looks through. */
  private readonly byType = new Map<number, AclBinding[]>();
  private readonly startAcls: readonly AclBinding[];

  constructor(options: AuthorizerOptions) {
    this.superUsers = new Set(options.superUsers ?? []);
    this.allowEveryoneIfNoAclFound = options.allowEveryoneIfNoAclFound ?? false;
    this.startAcls = (options.acls ?? []).map(bindingOf);
    for (const b of this.startAcls) {
      const bad = invalidAclReason(b);
      if (bad) throw new Error(`authorizer.acls: ${bad}: ${JSON.stringify(specOf(b))}`);
    }
    this.reset();
  }

  /** The ACLs the cluster started with, and no others (reset). */
  reset(): number {
    const dropped = this.acls.size;
    this.acls.clear();
    this.byType.clear();
    for (const b of this.startAcls) this.add(b);
    return dropped;
  }

  get size(): number {
    return this.acls.size;
  }

  private add(b: AclBinding): void {
    const key = keyOf(b);
    if (this.acls.has(key)) return;
    this.acls.set(key, b);
    const list = this.byType.get(b.resourceType) ?? [];
    list.push(b);
    this.byType.set(b.resourceType, list);
  }

  /** CreateAcls: each valid ACL is stored once (a duplicate succeeds and adds nothing). */
  createAcls(bindings: readonly AclBinding[]): AclCreateResult[] {
    return bindings.map((b) => {
      const bad = invalidAclReason(b);
      if (bad) return { error: 'INVALID_REQUEST', message: bad };
      this.add(b);
      return { error: 'NONE', message: null };
    });
  }

  /** DescribeAcls: the ACLs the filter matches. */
  describe(filter: AclBindingFilter): AclBinding[] {
    return [...this.acls.values()].filter((b) => filterMatches(filter, b));
  }

  /** DeleteAcls: each filter's matches against the ACLs as they were before the request (an ACL two filters match is listed by both), then all of them go. */
  deleteAcls(filters: readonly AclBindingFilter[]): AclBinding[][] {
    const matched = filters.map((f) => this.describe(f));
    const gone = new Set(matched.flat().map(keyOf));
    if (gone.size > 0) {
      for (const key of gone) this.acls.delete(key);
      for (const [type, list] of this.byType) this.byType.set(type, list.filter((b) => !gone.has(keyOf(b))));
    }
    return matched;
  }

  /** Every ACL (the control API's view). */
  all(): AclBinding[] {
    return [...this.acls.values()];
  }

  /** StandardAuthorizerData.authorize for one literal resource. */
  authorize(session: Session, operation: number, resourceType: number, resourceName: string): boolean {
    if (this.superUsers.has(session.principal)) return true;
    let allowed = false;
    let hasResourceAcls = false;
    for (const acl of this.byType.get(resourceType) ?? []) {
      if (!appliesTo(acl, resourceName)) continue;
      hasResourceAcls = true;
      const result = findResult(acl, session, operation);
      if (result === 'DENIED') return false;
      if (result === 'ALLOWED') allowed = true;
    }
    return allowed || (!hasResourceAcls && this.allowEveryoneIfNoAclFound);
  }

  /**
   * Authorizer.authorizeByResourceType (the interface's default, which
   * StandardAuthorizer keeps): allowed if some resource of the type could be,
   * i.e. an ALLOW (of the operation or ALL, no implied ones) that no DENY
   * dominates. InitProducerId asks it for WRITE on topics (KIP-679).
   */
  authorizeByResourceType(session: Session, operation: number, resourceType: number): boolean {
    if (this.authorize(session, operation, resourceType, 'hardcode')) return true;
    const deny = { literal: new Set<string>(), prefixed: new Set<string>() };
    const allow = { literal: new Set<string>(), prefixed: new Set<string>() };
    let wildcardAllow = false;
    for (const b of this.byType.get(resourceType) ?? []) {
      if (b.host !== session.host && b.host !== WILDCARD) continue;
      if (b.principal !== session.principal && b.principal !== WILDCARD_PRINCIPAL) continue;
      if (b.operation !== operation && b.operation !== AclOperation.ALL) continue;
      const literal = b.patternType === PatternType.LITERAL;
      if (b.permissionType === AclPermissionType.DENY) {
        if (literal && b.resourceName === WILDCARD) return false;
        (literal ? deny.literal : deny.prefixed).add(b.resourceName);
      } else if (literal && b.resourceName === WILDCARD) wildcardAllow = true;
      else (literal ? allow.literal : allow.prefixed).add(b.resourceName);
    }
    if (wildcardAllow) return true;
    const dominated = (name: string) => [...name].some((_, i) => deny.prefixed.has(name.slice(0, i + 1)));
    for (const name of allow.literal) if (!deny.literal.has(name) && !dominated(name)) return true;
    for (const name of allow.prefixed) if (!dominated(name)) return true;
    return false;
  }

  /** AuthHelper.authorizedOperations: the supported operations allowed on the resource, as a bit field (bit = operation code). */
  authorizedOperations(session: Session, resourceType: number, resourceName: string): number {
    let bits = 0;
    for (const op of SUPPORTED_OPERATIONS[resourceType] ?? []) if (this.authorize(session, op, resourceType, resourceName)) bits |= 1 << op;
    return bits;
  }
}

/** Whether the ACL's resource pattern covers the literal resource name. */
function appliesTo(acl: AclBinding, name: string): boolean {
  if (acl.patternType === PatternType.PREFIXED) return name.startsWith(acl.resourceName);
  return acl.resourceName === name || acl.resourceName === WILDCARD;
}

/** StandardAuthorizerData.findResult: null when the ACL does not speak to this principal, host and operation. */
function findResult(acl: AclBinding, session: Session, operation: number): 'ALLOWED' | 'DENIED' | null {
  if (acl.principal !== session.principal && acl.principal !== WILDCARD_PRINCIPAL) return null;
  if (acl.host !== WILDCARD && acl.host !== session.host) return null;
  if (acl.operation !== AclOperation.ALL) {
    if (acl.permissionType === AclPermissionType.ALLOW) {
      if (operation === AclOperation.DESCRIBE) {
        if (!IMPLIES_DESCRIBE.has(acl.operation)) return null;
      } else if (operation === AclOperation.DESCRIBE_CONFIGS) {
        if (!IMPLIES_DESCRIBE_CONFIGS.has(acl.operation)) return null;
      } else if (operation !== acl.operation) return null;
    } else if (operation !== acl.operation) return null;
  }
  return acl.permissionType === AclPermissionType.ALLOW ? 'ALLOWED' : 'DENIED';
}

/** With no authorizer Kafka allows everything, and authorized_operations lists every supported operation. */
export function allOperations(resourceType: number): number {
  let bits = 0;
  for (const op of SUPPORTED_OPERATIONS[resourceType] ?? []) bits |= 1 << op;
  return bits;
}
