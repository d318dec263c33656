import { DEFAULT_LANGUAGE } from '../i18n/languages';

/**
 * A file download through fetch, so the page can show how far it got (the sheet exports of a big
 * event take seconds). The server streams them without Content-Length, so progress is the bytes
 * received; when the length is known it is given too.
 */
export interface DownloadProgress {
  received: number;
  total: number | null;
}

export class DownloadError extends Error {
  constructor(
    message: string,
    readonly status: number,
    /** The server's `{title, status}` body, when it sent one. */
    readonly body: unknown,
  ) {
    super(message);
    this.name = 'DownloadError';
  }
}

/** The file name of a Content-Disposition header (RFC 6266: `filename*` first, then `filename`). */
export function dispositionFileName(header: string | null): string | undefined {
  if (!header) return undefined;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (extended) {
    try {
      return decodeURIComponent(extended[1]!.trim());
    } catch {
      // fall back to the plain name
    }
  }
  const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/.exec(header);
  return plain ? (plain[2] ?? plain[1]!).trim() : undefined;
}

/**
 * Fetches `url` (the session cookie signs it), reporting progress per chunk; resolves to the file.
 * `language` is sent as Accept-Language, as the API client does for every call (spec §7): a refusal's
 * `{title}` then comes in the app's language rather than the browser's.
 */
export async function fetchWithProgress(
  url: string,
  onProgress: (progress: DownloadProgress) => void,
  { signal, language }: { signal?: AbortSignal; language?: string } = {},
): Promise<{ blob: Blob; fileName: string | undefined }> {
  // Resolved against the page, as the base query does: Node's fetch (tests) rejects relative URLs.
  const response = await fetch(new URL(url, window.location.href), {
    credentials: 'same-origin',
    signal,
    headers: { 'Accept-Language': language ?? DEFAULT_LANGUAGE },
  });
  if (!response.ok) {
    const body: unknown = await response.json().catch(() => undefined);
    throw new DownloadError(response.statusText, response.status, body);
  }
  const length = Number(response.headers.get('content-length'));
  const total = Number.isInteger(length) && length > 0 ? length : null;
  const parts: Uint8Array[] = [];
  let received = 0;
  onProgress({ received, total });
  if (response.body) {
    const reader = response.body.getReader();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      parts.push(chunk.value);
      received += chunk.value.byteLength;
      onProgress({ received, total });
    }
  }
  const type = response.headers.get('content-type') ?? 'application/octet-stream';
  return {
    blob: new Blob(parts as BlobPart[], { type }),
    fileName: dispositionFileName(response.headers.get('content-disposition')),
  };
}

/** Hands a fetched file to the browser's downloads. */
export function saveBlob(blob: Blob, fileName: string): void {
  const href = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = href;
  anchor.download = fileName;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  // Some browsers read the URL after the click returns.
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}
