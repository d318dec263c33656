import { describeError, getErrorMessage, getErrorStatus } from '@/shared/api/errors';
import { createTestI18n } from '../../helpers/i18n';

const t = createTestI18n().t;

describe('getErrorMessage: the one error shape', () => {
  it('takes the response body title (GZCTF answers {title, status})', () => {
    expect(getErrorMessage(t, { status: 400, data: { title: 'Team name taken', status: 400 } })).toBe(
      'Team name taken',
    );
  });

  it('then the body message, then its cause', () => {
    expect(getErrorMessage(t, { status: 500, data: { message: 'boom' } })).toBe('boom');
    expect(getErrorMessage(t, { status: 500, data: { cause: 'disk full' } })).toBe('disk full');
    expect(getErrorMessage(t, { status: 500, data: { cause: { message: 'nested' } } })).toBe('nested');
  });

  it("then the error's own title, message or cause", () => {
    expect(getErrorMessage(t, new Error('render exploded'))).toBe('render exploded');
    expect(getErrorMessage(t, { name: 'Error', message: 'serialized' })).toBe('serialized');
    expect(getErrorMessage(t, { title: 'Titled' })).toBe('Titled');
    expect(getErrorMessage(t, 'plain text')).toBe('plain text');
  });

  it('falls back to "unknown error"', () => {
    expect(getErrorMessage(t, { status: 404, data: null })).toBe('Unknown error');
    expect(getErrorMessage(t, { status: 400, data: { title: '' } })).toBe('Unknown error');
    expect(getErrorMessage(t, undefined)).toBe('Unknown error');
    expect(getErrorMessage(t, {})).toBe('Unknown error');
  });

  it('never shows an HTML error page', () => {
    expect(
      getErrorMessage(t, {
        status: 'PARSING_ERROR',
        originalStatus: 502,
        data: '<html><body>Bad gateway</body></html>',
      }),
    ).toBe('Unknown error');
    expect(getErrorMessage(t, { status: 'PARSING_ERROR', originalStatus: 502, data: 'Bad gateway' })).toBe(
      'Bad gateway',
    );
  });

  it('explains timeouts and an unreachable server in the reader language', () => {
    expect(getErrorMessage(t, { status: 'TIMEOUT_ERROR', error: 'AbortError: signal timed out' })).toBe(
      'The server took too long to answer.',
    );
    expect(getErrorMessage(t, { status: 'FETCH_ERROR', error: 'TypeError: Failed to fetch' })).toMatch(
      /could not be reached/,
    );
    expect(getErrorMessage(createTestI18n('de-DE').t, { status: 'FETCH_ERROR', error: 'x' })).toMatch(
      /nicht erreichbar/,
    );
  });

  it('describes without translating, for listeners', () => {
    expect(describeError({ status: 409, data: { title: 'Taken' } })).toEqual({ text: 'Taken' });
    expect(describeError(null)).toEqual({ key: 'common:error.unknown' });
  });
});

describe('getErrorStatus', () => {
  it('reads the HTTP status, also through a parsing error', () => {
    expect(getErrorStatus({ status: 429, data: null })).toBe(429);
    expect(getErrorStatus({ status: 'PARSING_ERROR', originalStatus: 429, data: 'slow down' })).toBe(429);
    expect(getErrorStatus({ status: 'FETCH_ERROR', error: 'x' })).toBe('FETCH_ERROR');
    expect(getErrorStatus(new Error('x'))).toBeUndefined();
  });
});
