/**
 * A failure the client caused (or a documented special code). The error handler turns it into GZCTF's
 * `{title, status}` body, translating `messageKey` into the request's language.
 *
 * `bodyStatus` exists for GZCTF's special codes (10001 not started, 10002 ended), which travel in the
 * body's `status` while the HTTP status stays 400.
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly messageKey: string,
    readonly params: Record<string, unknown> = {},
    readonly bodyStatus: number = statusCode,
  ) {
    super(messageKey);
    this.name = 'HttpError';
  }
}

export const badRequest = (key: string, params?: Record<string, unknown>) => new HttpError(400, key, params);
export const unauthorized = (key = 'error.loginRequired') => new HttpError(401, key);
export const forbidden = (key = 'error.forbidden') => new HttpError(403, key);
export const notFound = (key = 'error.notFound', params?: Record<string, unknown>) => new HttpError(404, key, params);
