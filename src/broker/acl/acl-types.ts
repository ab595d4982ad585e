// Kafka's ACL vocabulary, by wire code: ResourceType, PatternType,
// AclOperation and AclPermissionType (org.apache.kafka.common.resource /
// org.apache.kafka.common.acl), and the binding and filter shapes the ACL APIs
// carry.

export const ResourceType = { UNKNOWN: 0, ANY: 1, TOPIC: 2, GROUP: 3, CLUSTER: 4, TRANSACTIONAL_ID: 5, DELEGATION_TOKEN: 6, USER: 7 } as const;
export const PatternType = { UNKNOWN: 0, ANY: 1, MATCH: 2, LITERAL: 3, PREFIXED: 4 } as const;
export const AclOperation = {
  UNKNOWN: 0, ANY: 1, ALL: 2, READ: 3, WRITE: 4, CREATE: 5, DELETE: 6, ALTER: 7, DESCRIBE: 8,
  CLUSTER_ACTION: 9, DESCRIBE_CONFIGS: 10, ALTER_CONFIGS: 11, IDEMPOTENT_WRITE: 12, CREATE_TOKENS: 13, DESCRIBE_TOKENS: 14,
} as const;
export const AclPermissionType = { UNKNOWN: 0, ANY: 1, DENY: 2, ALLOW: 3 } as const;

export type ResourceTypeName = keyof typeof ResourceType;
export type PatternTypeName = keyof typeof PatternType;
export type AclOperationName = keyof typeof AclOperation;
export type AclPermissionTypeName = keyof typeof AclPermissionType;

/** The resource types, pattern types, operations and permissions an ACL may hold (AclControlManager.validateNewAcl). */
export const CONCRETE_RESOURCE_TYPES = ['TOPIC', 'GROUP', 'CLUSTER', 'TRANSACTIONAL_ID', 'DELEGATION_TOKEN', 'USER'] as const;
export const CONCRETE_PATTERN_TYPES = ['LITERAL', 'PREFIXED'] as const;
export const CONCRETE_OPERATIONS = Object.keys(AclOperation).filter((k) => k !== 'UNKNOWN' && k !== 'ANY') as Exclude<AclOperationName, 'UNKNOWN' | 'ANY'>[];
export const CONCRETE_PERMISSIONS = ['ALLOW', 'DENY'] as const;

/** ResourcePattern.WILDCARD_RESOURCE and the wildcard principal and host. */
export const WILDCARD = '*';
export const WILDCARD_PRINCIPAL = 'User:*';
/** The one name a CLUSTER resource has (CommonResources CLUSTER_NAME). */
export const CLUSTER_NAME = 'kafka-cluster';

/** An AclBinding: a resource pattern and an access control entry, all by wire code. */
export interface AclBinding {
  readonly resourceType: number;
  readonly resourceName: string;
  readonly patternType: number;
  readonly principal: string;
  readonly host: string;
  readonly operation: number;
  readonly permissionType: number;
}

/** An AclBindingFilter: null strings match anything; ANY codes match any value; pattern type MATCH matches the patterns that apply to the name. */
export interface AclBindingFilter {
  readonly resourceType: number;
  readonly resourceName: string | null;
  readonly patternType: number;
  readonly principal: string | null;
  readonly host: string | null;
  readonly operation: number;
  readonly permissionType: number;
}

/** AclEntry.supportedOperations: what authorized_operations may hold for each resource type. */
export const SUPPORTED_OPERATIONS: Readonly<Record<number, readonly number[]>> = {
  [ResourceType.TOPIC]: [AclOperation.READ, AclOperation.WRITE, AclOperation.CREATE, AclOperation.DESCRIBE, AclOperation.DELETE, AclOperation.ALTER, AclOperation.DESCRIBE_CONFIGS, AclOperation.ALTER_CONFIGS],
  [ResourceType.GROUP]: [AclOperation.READ, AclOperation.DESCRIBE, AclOperation.DELETE],
  [ResourceType.CLUSTER]: [AclOperation.CREATE, AclOperation.CLUSTER_ACTION, AclOperation.DESCRIBE_CONFIGS, AclOperation.ALTER_CONFIGS, AclOperation.IDEMPOTENT_WRITE, AclOperation.ALTER, AclOperation.DESCRIBE],
  [ResourceType.TRANSACTIONAL_ID]: [AclOperation.DESCRIBE, AclOperation.WRITE],
  [ResourceType.DELEGATION_TOKEN]: [AclOperation.DESCRIBE],
  [ResourceType.USER]: [AclOperation.CREATE_TOKENS, AclOperation.DESCRIBE_TOKENS],
};

/** authorized_operations when the client did not ask for them (the schemas' default, Integer.MIN_VALUE). */
export const AUTHORIZED_OPERATIONS_OMITTED = -2147483648;

const isCode = (table: Record<string, number>, code: number) => Object.values(table).includes(code);
/** Codes outside Kafka's enums read as UNKNOWN (fromCode), as an unknown code from the wire does. */
export const knownOr = (table: Record<string, number>, code: number): number => (isCode(table, code) ? code : 0);
