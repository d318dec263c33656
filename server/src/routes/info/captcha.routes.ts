import type { Handlers } from '../../contract/handlers';

export const captchaHandlers: Handlers = {
  async infoGetCaptchaConfig(request) {
    const { accountPolicy } = await request.server.settings.get();
    return request.server.captcha.info(accountPolicy.useCaptcha);
  },

  async infoPowChallenge(request, reply) {
    // As GZCTF: an empty 404 unless the configured provider is HashPow.
    if (request.server.captcha.provider !== 'HashPow') return reply.status(404).send();
    return request.server.captcha.createPowChallenge();
  },
};
