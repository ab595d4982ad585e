// SaslHandshake (17), v0-1: chooses the SASL mechanism of a connection.
// v1 is followed by SaslAuthenticate requests; v0 by raw tokens (handled in
// server/connection.ts). An unknown mechanism gets UNSUPPORTED_SASL_MECHANISM
// with the enabled ones; a handshake on a connection that needs none (no
// SASL configured, or already authenticated) gets ILLEGAL_SASL_STATE.
import { SaslHandshakeApi } from '../../protocol/messages/index.js';
import { ErrorCode } from '../../protocol/errors.js';
import { defineHandler } from './handler.js';

export default defineHandler(SaslHandshakeApi, (req, ctx) => ({
  errorCode: ErrorCode[ctx.sasl.handshake(req.mechanism, ctx.apiVersion)],
  mechanisms: ctx.sasl.enabledMechanisms(),
}));
