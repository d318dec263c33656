import type { TFunction } from 'i18next';
import { encodeBase64 } from '../../lib/tokens';
import type { MailMessage } from '../../plugins/app/mail';

export type MailKind = 'verify' | 'reset' | 'confirm';

const MAIL_KEYS: Record<MailKind, string> = { verify: 'mail.verify', reset: 'mail.reset', confirm: 'mail.changeEmail' };

/**
 * The link GZCTF mails: `{origin}/account/{verify|reset|confirm}?token=…&email=<base64 address>`; the
 * client's pages read both and post them back (reference §2.1).
 */
export function mailLink(origin: string, kind: MailKind, token: string, email: string): string {
  const query = new URLSearchParams({ token, email: encodeBase64(email) });
  return `${origin.replace(/\/+$/, '')}/account/${kind}?${query.toString()}`;
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);

/** A mail in the language of the request that caused it, as plain text plus a minimal HTML copy. */
export function composeMail(
  t: TFunction,
  kind: MailKind,
  values: { to: string; userName: string; title: string; link: string },
): MailMessage {
  const key = MAIL_KEYS[kind];
  const params = { userName: values.userName, title: values.title, link: values.link };
  const text = t(`${key}.body`, params);
  const html = text
    .split(/\n{2,}/)
    .map((paragraph) => {
      const escaped = escapeHtml(paragraph).replace(/\n/g, '<br>');
      const link = escapeHtml(values.link);
      return `<p>${escaped.replace(link, `<a href="${link}">${link}</a>`)}</p>`;
    })
    .join('\n');
  return { to: values.to, subject: t(`${key}.subject`, params), text, html };
}
