// SaslAuthenticate (36), v0-2: one SASL token each way (PLAIN: one round;
// SCRAM: two; OAUTHBEARER: one, or two when the token is refused). A
// failure answers SASL_AUTHENTICATION_FAILED with Kafka's message and
// closes the connection; session lifetime is 0 (no expiry).
import { SaslAuthenticateApi } from '../../protocol/messages/index.js';
import { ErrorCode } from '../../protocol/errors.js';
import { CloseAfter, defineHandler } from './handler.js';

export default defineHandler(SaslAuthenticateApi, (req, ctx) => {
  const step = ctx.sasl.authenticate(req.authBytes);
  if (!step.ok) {
    return new CloseAfter({ errorCode: ErrorCode[step.error], errorMessage: step.message, authBytes: Buffer.alloc(0), sessionLifetimeMs: 0 });
  }
  if (step.refused) ctx.log.info({ reason: step.refused }, 'OAUTHBEARER token refused');
  return { errorCode: ErrorCode.NONE, errorMessage: null, authBytes: step.reply, sessionLifetimeMs: 0 };
});
