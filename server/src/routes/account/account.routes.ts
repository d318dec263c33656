import type { FastifyRequest } from 'fastify';
import type { Handlers } from '../../contract/handlers';
import { HttpError } from '../../lib/http-error';
import { MAX_IMAGE_BYTES } from '../../lib/images';
import { sendJsonString } from '../../lib/reply';
import { readUploads } from '../../lib/uploads';
import { requireUser } from '../../plugins/app/auth';
import { addressScope } from '../../plugins/app/brute-force';
import { endSession, startSession } from '../../plugins/app/session';
import type { RequestContext } from '../../modules/accounts';
import * as accounts from '../../modules/accounts';

function context(request: FastifyRequest): RequestContext {
  return {
    ip: request.ip,
    t: request.t,
    // Never the request's Host header: anyone could have a real reset link to their own host mailed
    // to a victim. Without PUBLIC_URL, links name this machine, as the start-up line does.
    origin: request.server.env.publicUrl ?? `http://localhost:${request.server.env.port}`,
  };
}

const REGISTER_TITLES = {
  LoggedIn: 'account.registered.loggedIn',
  AdminConfirmationRequired: 'account.registered.adminConfirmationRequired',
  EmailConfirmationRequired: 'account.registered.emailConfirmationRequired',
} as const;

export const accountHandlers: Handlers = {
  async accountRegister(request, reply) {
    const { status, user } = await request.server.attempts.run(
      reply,
      [['registerAddress', addressScope(request.ip)]],
      () => accounts.register(request.server, context(request), request.body),
    );
    if (status === 'LoggedIn') await startSession(request, reply, user.id);
    return { title: request.t(REGISTER_TITLES[status]), data: status, status: 200 };
  },

  async accountLogIn(request, reply) {
    // Guesses are counted for the account tried and for the address trying: one cannot be tried
    // from many addresses, nor many accounts from one address, faster than the delays allow.
    const user = await request.server.attempts.run(
      reply,
      [
        ['signInAccount', await accounts.signInSubject(request.server.db, request.body.userName)],
        ['signInAddress', addressScope(request.ip)],
      ],
      () => accounts.logIn(request.server, context(request), request.body),
      { counts: (error) => error instanceof HttpError && error.messageKey === 'account.loginFailed' },
    );
    await startSession(request, reply, user.id);
    return reply.status(200).send();
  },

  async accountLogOut(request, reply) {
    await endSession(request, reply);
    return reply.status(200).send();
  },

  async accountVerify(request, reply) {
    const user = await accounts.verifyEmail(request.server, request.body);
    await startSession(request, reply, user.id);
    return reply.status(200).send();
  },

  async accountRecovery(request, reply) {
    // Every request may send a mail: counted for the address asked about and the address asking.
    await request.server.attempts.run(
      reply,
      [
        ['recoveryAccount', request.body.email],
        ['recoveryAddress', addressScope(request.ip)],
      ],
      () => accounts.requestRecovery(request.server, context(request), request.body),
    );
    return { title: request.t('account.recoverySent'), status: 200 };
  },

  async accountPasswordReset(request, reply) {
    // Reset tokens are long random strings; the count only stops a client from trying them endlessly.
    await request.server.attempts.run(reply, [['resetAddress', addressScope(request.ip)]], () =>
      accounts.resetPassword(request.server, request.body),
    );
    return reply.status(200).send();
  },

  async accountProfile(request) {
    return accounts.profile(request.server, requireUser(request));
  },

  async accountUpdate(request, reply) {
    await accounts.updateProfile(request.server, requireUser(request), request.body);
    return reply.status(200).send();
  },

  async accountChangePassword(request, reply) {
    await accounts.changePassword(request.server, requireUser(request), request.sessionId, request.body);
    return reply.status(200).send();
  },

  async accountChangeEmail(request, reply) {
    const result = await accounts.requestEmailChange(
      request.server,
      context(request),
      requireUser(request),
      request.body,
    );
    if (!result.sent) {
      // GZCTF answers RequestResponse<bool> with data:false here, while the contract's 400 schema is the
      // plain RequestResponse; serialising by hand keeps `data` on the wire.
      return reply
        .status(400)
        .serializer(JSON.stringify)
        .type('application/json; charset=utf-8')
        .send({ title: request.t('account.changeEmailDisabled'), data: false, status: 400 });
    }
    return { title: request.t('account.changeEmailSent'), data: true, status: 200 };
  },

  async accountMailChangeConfirm(request, reply) {
    await accounts.confirmEmailChange(request.server, requireUser(request), request.body);
    return reply.status(200).send();
  },

  async accountAvatar(request, reply) {
    const user = requireUser(request);
    const [file] = await readUploads(request, {
      fields: ['file'],
      maxFiles: 1,
      maxBytes: MAX_IMAGE_BYTES,
      tooLargeKey: 'assets.imageTooLarge',
      tooLargeParams: { limit: '3 MiB' },
    });
    return sendJsonString(reply, await accounts.replaceAvatar(request.server, user, file!.buffer));
  },
};
