// The audit's one input error: the field (`processed[3].offset`) and why.
/** A refused audit input: the field (`processed[3].offset`) and why. */
export class AuditInputError extends Error {
  override name = 'AuditInputError';
  constructor(
    readonly field: string,
    readonly reason: string,
  ) {
    super(`audit input: ${field}: ${reason}`);
  }
}
