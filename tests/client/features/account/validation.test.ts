import { avatarProblem, MAX_AVATAR_BYTES } from '@/features/account/lib/avatar';
import { safeRedirect } from '@/features/account/lib/redirect';
import {
  confirmError,
  emailError,
  maxLengthError,
  passwordError,
  passwordStrength,
  phoneError,
  userNameError,
} from '@/features/account/lib/validation';

const key = (ref: unknown) => (ref && typeof ref === 'object' && 'key' in ref ? ref.key : ref);

describe('account field rules (reference §1.2, §3.2)', () => {
  it('wants user names of 3 to 15 characters, counted as the contract counts them', () => {
    expect(key(userNameError(''))).toBe('account:validation.userNameRequired');
    expect(key(userNameError('ab'))).toBe('account:validation.userNameLength');
    expect(userNameError('abc')).toBeUndefined();
    expect(userNameError('a'.repeat(15))).toBeUndefined();
    expect(key(userNameError('a'.repeat(16)))).toBe('account:validation.userNameLength');
    // Three emoji are three characters, though six UTF-16 units.
    expect(userNameError('🚩🚩🚩')).toBeUndefined();
  });

  it('checks e-mail addresses', () => {
    expect(key(emailError(''))).toBe('account:validation.emailRequired');
    expect(key(emailError('alice'))).toBe('account:validation.emailInvalid');
    expect(key(emailError('alice@'))).toBe('account:validation.emailInvalid');
    expect(emailError('alice@example.org')).toBeUndefined();
  });

  it('applies the password rules in order: length, digit, lower, upper', () => {
    expect(key(passwordError(''))).toBe('account:validation.passwordRequired');
    expect(key(passwordError('Ab1'))).toBe('account:validation.password.length');
    expect(key(passwordError('Abcdefg'))).toBe('account:validation.password.digit');
    expect(key(passwordError('ABCDEF1'))).toBe('account:validation.password.lower');
    expect(key(passwordError('abcdef1'))).toBe('account:validation.password.upper');
    expect(passwordError('Abcde1')).toBeUndefined();
  });

  it('compares the confirmation', () => {
    expect(key(confirmError('Abcde1', ''))).toBe('account:validation.confirmRequired');
    expect(key(confirmError('Abcde1', 'Abcde2'))).toBe('account:validation.passwordMismatch');
    expect(confirmError('Abcde1', 'Abcde1')).toBeUndefined();
  });

  it('rates strength from weak to strong, and weak whenever a rule is broken', () => {
    expect(passwordStrength('')).toBe(0);
    expect(passwordStrength('abcdefghijklmnop')).toBe(1);
    expect(passwordStrength('Abcde1')).toBe(2);
    expect(passwordStrength('Abcde1!x')).toBe(3);
    expect(passwordStrength('Correct-Horse-9-Battery')).toBe(4);
  });

  it('limits profile fields and checks phone numbers like the server', () => {
    expect(maxLengthError('x'.repeat(128), 128)).toBeUndefined();
    expect(key(maxLengthError('x'.repeat(129), 128))).toBe('account:validation.tooLong');
    expect(phoneError('')).toBeUndefined();
    expect(phoneError('+49 (30) 123-456')).toBeUndefined();
    expect(key(phoneError('call me'))).toBe('account:validation.phoneInvalid');
    expect(phoneError('+1 555 0100 ext. 12')).toBeUndefined();
    expect(key(phoneError(`+${'1'.repeat(64)}`))).toBe('account:validation.phoneInvalid');
  });

  it('accepts avatars of the supported image types up to 3 MiB', () => {
    expect(avatarProblem({ name: 'me.png', type: 'image/png', size: 10 })).toBeUndefined();
    expect(avatarProblem({ name: 'me.heic', type: '', size: 10 })).toBeUndefined();
    expect(key(avatarProblem({ name: 'me.svg', type: 'image/svg+xml', size: 10 }))).toBe('account:avatar.wrongType');
    expect(key(avatarProblem({ name: 'me.png', type: 'image/png', size: 0 }))).toBe('account:avatar.empty');
    expect(avatarProblem({ name: 'me.png', type: 'image/png', size: MAX_AVATAR_BYTES })).toBeUndefined();
    expect(avatarProblem({ name: 'me.png', type: 'image/png', size: MAX_AVATAR_BYTES + 1 })).toEqual({
      key: 'account:avatar.tooLarge',
      values: { size: '3.00 MiB', limit: '3.00 MiB' },
    });
  });

  it('only redirects to paths on this site after sign-in', () => {
    expect(safeRedirect('/games/3?tab=1')).toBe('/games/3?tab=1');
    expect(safeRedirect(null)).toBe('/');
    expect(safeRedirect('https://evil.example')).toBe('/');
    expect(safeRedirect('//evil.example')).toBe('/');
    expect(safeRedirect('/\\evil.example')).toBe('/');
    expect(safeRedirect('javascript:alert(1)')).toBe('/');
    // URL parsing drops tabs and newlines: `/\t/evil.example` would become `//evil.example`.
    expect(safeRedirect('/\t/evil.example')).toBe('/');
    expect(safeRedirect('/\n/evil.example')).toBe('/');
    expect(safeRedirect('/games/3\u0000')).toBe('/');
  });
});
