// Errors of the control API as values: a handler throws an HttpError, and the
// server's one error helper turns it (or a RuleValidationError, or anything
// else) into a status and an ErrorBody.
import { RuleValidationError } from '../chaos/api.js';
import type { ErrorName } from '../protocol/errors.js';
import type { ErrorBody } from './types.js';

export class HttpError extends Error {
  override name = 'HttpError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const notFound = (what: string) => new HttpError(404, 'not_found', `${what} does not exist`);
export const badParameter = (field: string, message: string) => new HttpError(400, 'bad_parameter', `${field}: ${message}`, field);

/** A refusal of the cluster model (its Kafka error name) as an HTTP error: 404 for missing things, 409 for a state that forbids it, else 400. */
export function kafkaError(name: ErrorName, message: string): HttpError {
  const status = name === 'UNKNOWN_TOPIC_OR_PARTITION' ? 404 : CONFLICTS.has(name) ? 409 : 400;
  return new HttpError(status, name.toLowerCase(), message);
}

const CONFLICTS = new Set<ErrorName>(['TOPIC_ALREADY_EXISTS', 'ELIGIBLE_LEADERS_NOT_AVAILABLE', 'BROKER_NOT_AVAILABLE', 'LEADER_NOT_AVAILABLE']);

/** Status and body for any error a handler throws; 500 for the unexpected ones. */
export function errorResponse(err: unknown): { status: number; body: ErrorBody; headers: Record<string, string>; unexpected: boolean } {
  if (err instanceof HttpError) {
    const body: ErrorBody = { error: err.code, message: err.message };
    if (err.field !== undefined) body.field = err.field;
    return { status: err.status, body, headers: err.headers, unexpected: false };
  }
  if (err instanceof RuleValidationError) {
    return { status: 400, body: { error: 'invalid_rule', message: err.message, field: err.field, reason: err.reason }, headers: {}, unexpected: false };
  }
  return { status: 500, body: { error: 'internal', message: (err as Error)?.message ?? String(err) }, headers: {}, unexpected: true };
}
