import type { TFunction } from 'i18next';
import { textKey, translateText, type TextRef } from '../text/textRef';

/*
 * The one error shape (style-anchors §9.4 rule 6): whatever failed (a fetch or RTK error, an Error,
 * anything thrown), UI text comes from `getErrorMessage(t, error)` and the status from
 * `getErrorStatus(error)`. Features never branch on fetch- or RTK-specific shapes.
 */

export const UNKNOWN_ERROR_KEY = 'common:error.unknown';

/** Longest server text we show as is; anything longer is a page, not a message. */
const MAX_MESSAGE_LENGTH = 500;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

function readableText(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (!text || text.length > MAX_MESSAGE_LENGTH || /^<(?:!doctype|html|\?xml)/i.test(text)) return undefined;
  return text;
}

/** `title`, then `message`, then `cause` of an object (spec §8), the first that is readable text. */
function messageOf(value: unknown): string | undefined {
  if (!isRecord(value)) return readableText(value);
  for (const field of ['title', 'message', 'cause'] as const) {
    const candidate = value[field];
    const text = isRecord(candidate) ? messageOf(candidate) : readableText(candidate);
    if (text) return text;
  }
  return undefined;
}

/** The HTTP status of a failed call (or RTK's string status such as 'FETCH_ERROR'), if it has one. */
export function getErrorStatus(error: unknown): number | string | undefined {
  if (!isRecord(error)) return undefined;
  const { status } = error;
  if (status === 'PARSING_ERROR' && typeof error.originalStatus === 'number') return error.originalStatus;
  return typeof status === 'number' || typeof status === 'string' ? status : undefined;
}

/**
 * What to tell the user about a failure, as a text reference: the response body's `title`, `message`
 * or `cause` (GZCTF answers `{title, status}`), else the error's own; a timeout or an unreachable
 * server get their own sentence; otherwise "unknown error".
 */
export function describeError(error: unknown): TextRef {
  if (isRecord(error)) {
    const fromBody = 'data' in error ? messageOf(error.data) : undefined;
    if (fromBody) return { text: fromBody };
    if (error.status === 'TIMEOUT_ERROR') return textKey('common:error.timeout');
    if (error.status === 'FETCH_ERROR') return textKey('common:error.network');
    if (error.name === 'AbortError' || error.name === 'TimeoutError') return textKey('common:error.timeout');
    if (error.status === 'CUSTOM_ERROR' && readableText(error.error)) return { text: readableText(error.error)! };
    const own = messageOf(error);
    if (own) return { text: own };
  } else {
    const text = readableText(error);
    if (text) return { text };
  }
  return textKey(UNKNOWN_ERROR_KEY);
}

/** The message for a failure in the reader's language; see `describeError`. */
export function getErrorMessage(t: TFunction, error: unknown): string {
  return translateText(t, describeError(error));
}

/** GZCTF's game error codes, sent in the body's `status` of a 400 (reference §1.3, spec §8). */
export const GAME_NOT_STARTED = 10001;
export const GAME_ENDED = 10002;

/**
 * The game error code of a failure (`{title, status: 10002}` with HTTP 400), if it carries one.
 * GZCTF 1.4.0 only ever sends 10002; 10001 is recognised too, should a server send it as intended.
 */
export function gameErrorCode(error: unknown): typeof GAME_NOT_STARTED | typeof GAME_ENDED | undefined {
  if (!isRecord(error) || !isRecord(error.data)) return undefined;
  const code = error.data.status;
  return code === GAME_NOT_STARTED || code === GAME_ENDED ? code : undefined;
}
