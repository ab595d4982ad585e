// The delivery audit (docs/audit.md).
export { auditDelivery, type AuditSource } from './audit.js';
export { attachProduceJournal, produceJournalOf, ProduceJournal, LOSES_ANSWER } from './produce-journal.js';
export { AuditInputError, validateAuditInput } from './validate.js';
export { formatAnomalies } from './format.js';
export { recordAnomalies, AUDIT_OUT_ENV } from './audit-out.js';
export * from './types.js';
