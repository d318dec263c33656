/**
 * How an error is written to the console and the logs table (the logger's `err` serializer): its
 * type, message and stack, its own fields and its cause, without what the libraries attach to their
 * errors that must not reach a log:
 *
 * - ioredis puts the failed command on every error (`command.args`): the `HELLO 3 AUTH user
 *   password` of a refused connection, or a cached value such as a proxy target with its flag;
 * - drizzle puts the query's values in its error (`params`, and after `params:` in the message and
 *   the stack): answers, invitation tokens, a game's private key, password hashes;
 * - PostgreSQL's `detail` names the values of a broken key.
 *
 * The SQL text itself stays: it says which statement failed and holds no values (they are parameters).
 */
const WITHHELD = new Set(['command', 'params', 'detail']);
const VALUES_IN_MESSAGE = /\nparams:[\s\S]*$/;

export interface LoggedError {
  type: string;
  message: string;
  stack: string;
  [field: string]: unknown;
}

function withoutValues(text: string): string {
  return text.replace(VALUES_IN_MESSAGE, '');
}

/** The stack with the message part (its first lines, before the frames) as cleaned. */
function cleanStack(stack: string, message: string, type: string): string {
  const frames = stack.indexOf('\n    at ');
  return `${type}: ${message}${frames < 0 ? '' : stack.slice(frames)}`;
}

/** The message followed by its causes' (as pino's own serializer writes it), each without values. */
function messageWithCauses(error: Error): string {
  const parts: string[] = [];
  for (let at: unknown = error; at instanceof Error && parts.length < 4; at = at.cause) {
    parts.push(withoutValues(at.message));
  }
  return parts.join(': ');
}

export function serializeError(error: Error, depth = 0): LoggedError {
  // The logger hands over whatever was logged under `err`; anything else goes out as it is.
  if (!(error instanceof Error)) return error as unknown as LoggedError;
  const type = error.constructor?.name || error.name;
  const message = messageWithCauses(error);
  const stack = typeof error.stack === 'string' ? cleanStack(error.stack, message, type) : '';
  const out: LoggedError = { type, message, stack };
  for (const [key, value] of Object.entries(error)) {
    if (WITHHELD.has(key) || key in out || key === 'cause') continue;
    out[key] = value instanceof Error ? serializeError(value, depth + 1) : value;
  }
  // Not enumerable on most errors; a few levels are enough to say why.
  if (error.cause instanceof Error && depth < 3) out.cause = serializeError(error.cause, depth + 1);
  else if (error.cause !== undefined) out.cause = error.cause;
  return out;
}
