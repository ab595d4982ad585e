// The errors a KIP-848 heartbeat can end in, as the ApiExceptions Kafka's
// GroupMetadataManager throws: the handler answers the error code and the
// message, as GroupCoordinatorService#handleOperationException does.
import type { ErrorName } from '../../protocol/errors.js';

export class ConsumerGroupError extends Error {
  constructor(
    readonly error: ErrorName,
    message: string,
  ) {
    super(message);
  }
}

export class FencedMemberEpoch extends ConsumerGroupError {
  constructor(message: string) {
    super('FENCED_MEMBER_EPOCH', message);
  }
}

export const groupError = (error: ErrorName, message: string) => new ConsumerGroupError(error, message);
