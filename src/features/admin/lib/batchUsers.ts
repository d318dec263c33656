import type { UserCreateModel } from '../api';

/** The columns of a batch line, in order; the first three are required. */
export const BATCH_COLUMNS = ['userName', 'email', 'password', 'teamName', 'realName', 'stdNumber', 'phone'] as const;
const REQUIRED_COLUMNS = 3;

/** Contract limits of `UserCreateModel` (reference §3.4). */
const LIMITS = { userName: [3, 15], teamName: [0, 15], realName: [0, 128], stdNumber: [0, 64] } as const;

export type BatchProblem =
  | 'fields'
  | 'userNameLength'
  | 'email'
  | 'password'
  | 'teamNameLength'
  | 'realNameLength'
  | 'stdNumberLength'
  | 'duplicateUserName'
  | 'duplicateEmail';

export interface BatchError {
  /** 1-based line of the pasted text. */
  line: number;
  problem: BatchProblem;
}

export interface BatchParseResult {
  users: UserCreateModel[];
  errors: BatchError[];
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The server's password rules (ASP.NET Identity defaults without the symbol rule, reference §1.2). */
export const isStrongPassword = (password: string) =>
  [...password].length >= 6 && /[0-9]/.test(password) && /[a-z]/.test(password) && /[A-Z]/.test(password);

/**
 * Splits one line into fields at commas or tabs (what spreadsheets put on the clipboard). A field in
 * double quotes may hold separators; `""` inside quotes is one quote.
 */
export function splitFields(line: string): string[] {
  const fields: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const char = line[i]!;
    if (quoted) {
      if (char === '"' && line[i + 1] === '"') {
        current += '"';
        i++;
      } else if (char === '"') quoted = false;
      else current += char;
    } else if (char === '"' && current.trim() === '') {
      quoted = true;
      current = '';
    } else if (char === ',' || char === '\t') {
      fields.push(current.trim());
      current = '';
    } else current += char;
  }
  fields.push(current.trim());
  return fields;
}

const isHeader = (fields: string[]) => fields[0]?.replace(/[\s_-]/g, '').toLowerCase() === 'username';

const within = (value: string | undefined, [min, max]: readonly [number, number]) =>
  value === undefined || value === '' ? min === 0 : [...value].length >= min && [...value].length <= max;

/**
 * Reads pasted lines `userName,email,password[,teamName[,realName[,stdNumber[,phone]]]]` into the
 * batch the server takes, with every problem found (by line). Blank lines and a header line are
 * skipped; a user name or e-mail may appear only once (the server would update the first with the second).
 */
export function parseBatchUsers(text: string): BatchParseResult {
  const users: UserCreateModel[] = [];
  const errors: BatchError[] = [];
  const names = new Set<string>();
  const emails = new Set<string>();
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === '') return;
    const fields = splitFields(raw);
    if (users.length === 0 && errors.length === 0 && isHeader(fields)) return;
    const problems: BatchProblem[] = [];
    if (fields.length < REQUIRED_COLUMNS || fields.length > BATCH_COLUMNS.length) {
      errors.push({ line, problem: 'fields' });
      return;
    }
    const [userName = '', email = '', password = '', teamName, realName, stdNumber, phone] = fields;
    if (!within(userName, LIMITS.userName)) problems.push('userNameLength');
    if (!EMAIL.test(email)) problems.push('email');
    if (!isStrongPassword(password)) problems.push('password');
    if (!within(teamName, LIMITS.teamName)) problems.push('teamNameLength');
    if (!within(realName, LIMITS.realName)) problems.push('realNameLength');
    if (!within(stdNumber, LIMITS.stdNumber)) problems.push('stdNumberLength');
    if (names.has(userName.toLowerCase())) problems.push('duplicateUserName');
    if (emails.has(email.toLowerCase())) problems.push('duplicateEmail');
    names.add(userName.toLowerCase());
    emails.add(email.toLowerCase());
    if (problems.length > 0) {
      errors.push(...problems.map((problem) => ({ line, problem })));
      return;
    }
    const optional = (value: string | undefined) => (value ? value : null);
    users.push({
      userName,
      email,
      password,
      teamName: optional(teamName),
      realName: optional(realName),
      stdNumber: optional(stdNumber),
      phone: optional(phone),
    });
  });
  return { users, errors };
}
