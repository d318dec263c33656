/** An HTTP answer read off a raw socket. */
export interface RawAnswer {
  /** The status of the first answer on the socket (NaN if none came). */
  status: number;
  /** Header names lower-cased. */
  headers: Record<string, string>;
  body: string;
}

/** The first answer in what a raw socket received: its status line, headers and the rest. */
export function parseRawAnswer(text: string): RawAnswer {
  const [head = '', ...rest] = text.split('\r\n\r\n');
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
  const headers = Object.fromEntries(
    head
      .split('\r\n')
      .slice(1)
      .map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
  );
  return { status, headers, body: rest.join('\r\n\r\n') };
}
