import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import nodemailer, { type Transporter } from 'nodemailer';
import type { SmtpSettings } from '../../env';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  /** Sends (or, without SMTP, logs) one message; rejects when the SMTP server refuses it. */
  send(message: MailMessage): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer;
  }
}

export function createSmtpMailer(settings: SmtpSettings): Mailer & { close(): void } {
  const transport: Transporter = nodemailer.createTransport({
    host: settings.host,
    port: settings.port,
    secure: settings.secure,
    auth: settings.user ? { user: settings.user, pass: settings.password ?? '' } : undefined,
    tls: settings.bypassCertVerify ? { rejectUnauthorized: false } : undefined,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  return {
    async send(message) {
      await transport.sendMail({ from: settings.from, ...message });
    },
    close() {
      transport.close();
    },
  };
}

/**
 * Account mails over SMTP (nodemailer). With no SMTP_HOST the message, link included, goes to the
 * log at info level instead, so a fresh install can still verify addresses (architecture §5).
 */
export default fp(
  async function mail(app: FastifyInstance) {
    const settings = app.env.smtp;
    if (!settings) {
      app.decorate('mailer', {
        async send(message: MailMessage) {
          app.log.info(
            { mail: { to: message.to, subject: message.subject, text: message.text } },
            'mail (no SMTP set)',
          );
        },
      });
      return;
    }
    const mailer = createSmtpMailer(settings);
    app.decorate('mailer', mailer);
    app.addHook('onClose', async () => mailer.close());
  },
  { name: 'mail' },
);
