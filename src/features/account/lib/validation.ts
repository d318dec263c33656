import { textKey, type TextRef } from '@/shared/text/textRef';

/**
 * The contract's limits on account fields (reference §3.2) and GZCTF's password rules (§1.2), checked
 * before a form is sent so the visitor learns at once; the server checks them again and has the
 * last word.
 */
export const LIMITS = {
  userName: { min: 3, max: 15 },
  password: { min: 6 },
  bio: 128,
  realName: 128,
  stdNumber: 64,
  email: 256,
} as const;

/** Length as the contract counts it: Unicode code points, not UTF-16 units. */
const length = (value: string) => [...value].length;

// The e-mail format the contract's `format: email` accepts (ajv-formats' pattern).
const EMAIL_PATTERN =
  /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;

// What the server (like .NET's [Phone]) accepts: digits with spaces, dots, dashes and brackets, an
// optional leading '+', an optional extension.
// The server's rule (account.service.ts): the lookahead keeps the pattern linear; 64 characters at most.
const PHONE_PATTERN = /^\+?(?=[\s.()-]*\d)[\d\s.()-]+(?:\s*(?:ext\.?|x)\s*\d+)?$/i;
const PHONE_MAX_LENGTH = 64;

export function userNameError(value: string): TextRef | undefined {
  if (!value.trim()) return textKey('account:validation.userNameRequired');
  const { min, max } = LIMITS.userName;
  if (length(value) < min || length(value) > max) return textKey('account:validation.userNameLength', { min, max });
  return undefined;
}

export function emailError(value: string): TextRef | undefined {
  if (!value.trim()) return textKey('account:validation.emailRequired');
  if (length(value) > LIMITS.email || !EMAIL_PATTERN.test(value.trim()))
    return textKey('account:validation.emailInvalid');
  return undefined;
}

export type PasswordRule = 'length' | 'digit' | 'lower' | 'upper';

export const PASSWORD_RULES: readonly PasswordRule[] = ['length', 'digit', 'lower', 'upper'];

/** Whether a password meets one of GZCTF's rules (§1.2: 6+ characters, a digit, a lower- and an upper-case letter). */
export function meetsPasswordRule(password: string, rule: PasswordRule): boolean {
  switch (rule) {
    case 'length':
      return length(password) >= LIMITS.password.min;
    case 'digit':
      return /[0-9]/.test(password);
    case 'lower':
      return /[a-z]/.test(password);
    case 'upper':
      return /[A-Z]/.test(password);
  }
}

export function passwordError(value: string): TextRef | undefined {
  if (!value) return textKey('account:validation.passwordRequired');
  const broken = PASSWORD_RULES.find((rule) => !meetsPasswordRule(value, rule));
  return broken ? textKey(`account:validation.password.${broken}`, { min: LIMITS.password.min }) : undefined;
}

export function confirmError(password: string, confirmation: string): TextRef | undefined {
  if (!confirmation) return textKey('account:validation.confirmRequired');
  return password === confirmation ? undefined : textKey('account:validation.passwordMismatch');
}

export function maxLengthError(value: string, max: number): TextRef | undefined {
  return length(value) > max ? textKey('account:validation.tooLong', { max }) : undefined;
}

export function phoneError(value: string): TextRef | undefined {
  return value && (value.length > PHONE_MAX_LENGTH || !PHONE_PATTERN.test(value))
    ? textKey('account:validation.phoneInvalid')
    : undefined;
}

export type PasswordStrength = 0 | 1 | 2 | 3 | 4;

/**
 * A rough strength for the meter: 0 empty, 1 weak … 4 strong. Counts character classes and rewards
 * length; anything breaking a rule stays weak. A hint for the visitor, not a security check.
 */
export function passwordStrength(password: string): PasswordStrength {
  if (!password) return 0;
  if (PASSWORD_RULES.some((rule) => !meetsPasswordRule(password, rule))) return 1;
  const classes = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^a-zA-Z0-9]/].filter((pattern) => pattern.test(password)).length;
  const size = length(password);
  const raw = classes + (size >= 10 ? 1 : 0) + (size >= 14 ? 1 : 0) - 1;
  return Math.min(4, Math.max(1, raw)) as PasswordStrength;
}
