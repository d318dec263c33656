import type { TFunction } from 'i18next';
import type { Database, Db } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import type { UserTokenPurpose } from '../../db/schema/enums';
import type { Env } from '../../env';
import { decryptApiField } from '../../lib/api-encryption';
import { badRequest, notFound, unauthorized } from '../../lib/http-error';
import { toWebp } from '../../lib/images';
import {
  burnPasswordCheck,
  hashPassword,
  passwordProblem,
  PASSWORD_MIN_LENGTH,
  verifyPassword,
} from '../../lib/password';
import { avatarUrl } from '../../lib/blobs';
import { releaseFileRow, removeBlob, storeFile } from '../attachments';
import { decodeBase64, hashToken, randomToken } from '../../lib/tokens';
import type { SessionUser } from '../../plugins/app/auth';
import type { Captcha } from '../../plugins/app/captcha';
import type { Mailer } from '../../plugins/app/mail';
import type { AccountPolicy, SettingsStore } from '../settings';
import { composeMail, mailLink, type MailKind } from './account.mail';
import {
  consumeUserToken,
  deleteUserSessions,
  findUserByEmail,
  findUserById,
  findUserByLogin,
  insertUser,
  lockUserRow,
  replaceUserToken,
  updateUser,
  userTokenState,
  type UserChanges,
  type UserRow,
} from './account.repository';

/** What a rule needs to know about the request that triggered it. */
export interface RequestContext {
  ip: string;
  t: TFunction;
  /** Where mailed links point: PUBLIC_URL, else the origin the request came to. */
  origin: string;
}

/** What the account rules use of the app. */
export interface AccountDeps {
  db: Database;
  settings: Pick<SettingsStore, 'get'>;
  /** The key of payload-encrypted fields, and where avatars are stored. */
  env: Pick<Env, 'xorKey' | 'dataDir'>;
  captcha: Pick<Captcha, 'verify'>;
  mailer: Mailer;
  log: { warn(object: object, message: string): void };
}

export type RegisterStatus = 'LoggedIn' | 'AdminConfirmationRequired' | 'EmailConfirmationRequired';

/** Identity's e-mail and reset tokens live 3 hours (reference §1.2); ours do too. */
export const TOKEN_LIFETIME_MS = 3 * 60 * 60 * 1000;
/** The database column's limit; the contract leaves e-mail addresses unbounded. */
const EMAIL_MAX_LENGTH = 256;
// What .NET's [Phone] accepts: digits with spaces, dots, dashes and brackets, an optional leading
// '+', an optional extension. The lookahead asks for a digit, so no two repeats compete for the same
// characters; the length cap (no number is longer) keeps whatever backtracking is left small.
const PHONE_PATTERN = /^\+?(?=[\s.()-]*\d)[\d\s.()-]+(?:\s*(?:ext\.?|x)\s*\d+)?$/i;
const PHONE_MAX_LENGTH = 64;

// ---- shared checks ----

function checkPassword(password: string): void {
  const problem = passwordProblem(password);
  if (problem) throw badRequest(`account.password.${problem}`, { min: PASSWORD_MIN_LENGTH });
}

/** The column's length: the contract's `format: email` sets none, and a longer one must not reach the database. */
export function checkEmailLength(email: string): void {
  if (email.length > EMAIL_MAX_LENGTH) {
    throw badRequest('validation.maxLength', { field: 'email', limit: EMAIL_MAX_LENGTH });
  }
}

function checkEmail(policy: AccountPolicy, email: string): void {
  checkEmailLength(email);
  const domains = policy.emailDomainList
    .split(',')
    .map((domain) => domain.trim().toLowerCase())
    .filter(Boolean);
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  if (domains.length > 0 && !domains.includes(domain)) {
    throw badRequest('account.emailDomainNotAllowed', { domains: domains.join(', ') });
  }
}

async function checkCaptcha(deps: AccountDeps, policy: AccountPolicy, ctx: RequestContext, token?: string | null) {
  if (policy.useCaptcha && !(await deps.captcha.verify(token, ctx.ip))) throw badRequest('account.captchaFailed');
}

/** Maps the unique indexes on lower(user_name) / lower(email) to the messages Identity would give. */
async function guardUnique<T>(write: () => Promise<T>, values: { userName?: string; email?: string }): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error, 'users_user_name_lower_key')) {
      throw badRequest('account.userNameTaken', { userName: values.userName ?? '' });
    }
    if (isUniqueViolation(error, 'users_email_lower_key')) {
      throw badRequest('account.emailTaken', { email: values.email ?? '' });
    }
    throw error;
  }
}

async function issueToken(deps: AccountDeps, userId: string, purpose: UserTokenPurpose, email: string) {
  const token = randomToken();
  await replaceUserToken(deps.db, {
    tokenHash: hashToken(token),
    userId,
    purpose,
    email,
    expiresAt: new Date(Date.now() + TOKEN_LIFETIME_MS),
  });
  return token;
}

async function sendAccountMail(
  deps: AccountDeps,
  ctx: RequestContext,
  kind: MailKind,
  values: { to: string; userName: string; token: string },
): Promise<void> {
  const { globalConfig } = await deps.settings.get();
  const link = mailLink(ctx.origin, kind, values.token, values.to);
  try {
    await deps.mailer.send(composeMail(ctx.t, kind, { ...values, title: globalConfig.title, link }));
  } catch (error) {
    deps.log.warn({ err: error, kind }, 'account mail could not be sent');
    throw badRequest('account.mailSendFailed');
  }
}

function decodeEmailParam(value: string): string {
  const email = decodeBase64(value);
  if (!email || !email.includes('@')) throw badRequest('account.invalidEmail');
  return email;
}

async function currentRow(deps: AccountDeps, user: SessionUser): Promise<UserRow> {
  const row = await findUserById(deps.db, user.id);
  if (!row) throw unauthorized();
  return row;
}

/**
 * Whether registering the account's address again may take the account over: an address that was
 * never confirmed proves nothing about its first registrant (a squatter, or the owner who lost the
 * mail), so a new registration may replace the pending one (name, password) and mail a fresh link.
 * Only when mail confirmation is how accounts become active (anywhere else nobody would prove the
 * address before using the password), only for a registration still pending (never confirmed, by
 * mail or by an admin, never signed in, a plain user), and only once its own link has expired: while
 * it is live, a second registration would have the owner's click confirm the second password.
 */
async function claimable(db: Db, row: UserRow, policy: AccountPolicy, now: Date): Promise<boolean> {
  if (!policy.emailConfirmationRequired || policy.activeOnRegister) return false;
  if (row.emailConfirmed || row.role !== 'User' || row.lastSignedInAt.getTime() > row.registerAt.getTime()) {
    return false;
  }
  const links = await userTokenState(db, row.id, 'EmailConfirm', now);
  return !links.live && !links.used;
}

// ---- operations ----

export async function register(
  deps: AccountDeps,
  ctx: RequestContext,
  body: { userName: string; password: string; email: string; challenge?: string | null },
): Promise<{ status: RegisterStatus; user: UserRow }> {
  const { accountPolicy: policy, globalConfig } = await deps.settings.get();
  if (!policy.allowRegister) throw badRequest('account.registrationDisabled');
  await checkCaptcha(deps, policy, ctx, body.challenge);
  checkEmail(policy, body.email);
  const password = decryptApiField(globalConfig, body.password, deps.env.xorKey);
  if (!password) throw badRequest('account.passwordRequired');
  checkPassword(password);

  const values = {
    userName: body.userName,
    passwordHash: await hashPassword(password),
    emailConfirmed: policy.activeOnRegister,
    ip: ctx.ip,
  };
  const existing = await findUserByEmail(deps.db, body.email);
  const user = await guardUnique(
    async () =>
      existing
        ? // Checked again under the row's lock: two registrations, or a confirmation, racing this one.
          deps.db.transaction(async (tx) => {
            const locked = await lockUserRow(tx, existing.id);
            if (!locked || !(await claimable(tx, locked, policy, new Date()))) throw badRequest('account.userExists');
            return (await updateUser(tx, locked.id, values)) ?? locked;
          })
        : insertUser(deps.db, { ...values, email: body.email, role: 'User' }),
    { userName: body.userName, email: body.email },
  );

  if (policy.activeOnRegister) {
    const now = new Date();
    await updateUser(deps.db, user.id, { lastSignedInAt: now, lastVisitedAt: now });
    return { status: 'LoggedIn', user };
  }
  if (!policy.emailConfirmationRequired) return { status: 'AdminConfirmationRequired', user };
  const token = await issueToken(deps, user.id, 'EmailConfirm', user.email);
  await sendAccountMail(deps, ctx, 'verify', { to: user.email, userName: user.userName, token });
  return { status: 'EmailConfirmationRequired', user };
}

/**
 * What sign-in guesses are counted against: the account a login names (by its name or its address,
 * which are two spellings of one account), else the login as typed.
 */
export async function signInSubject(db: Db, login: string): Promise<string> {
  return (await findUserByLogin(db, login))?.id ?? login;
}

export async function logIn(
  deps: AccountDeps,
  ctx: RequestContext,
  body: { userName: string; password: string; challenge?: string | null },
): Promise<UserRow> {
  const { accountPolicy: policy, globalConfig } = await deps.settings.get();
  await checkCaptcha(deps, policy, ctx, body.challenge);
  const password = decryptApiField(globalConfig, body.password, deps.env.xorKey);
  if (!password) throw badRequest('account.passwordRequired');
  const user = await findUserByLogin(deps.db, body.userName);
  if (!user) {
    await burnPasswordCheck(password);
    throw unauthorized('account.loginFailed');
  }
  if (!(await verifyPassword(user.passwordHash, password))) throw unauthorized('account.loginFailed');
  // Only someone who knows the password learns why an existing account cannot sign in.
  if (user.role === 'Banned') throw unauthorized('account.banned');
  if (!user.emailConfirmed) throw unauthorized('account.emailNotConfirmed');
  const now = new Date();
  await updateUser(deps.db, user.id, { lastSignedInAt: now, lastVisitedAt: now, ip: ctx.ip });
  return user;
}

export async function verifyEmail(deps: AccountDeps, body: { token: string; email: string }): Promise<UserRow> {
  const email = decodeEmailParam(body.email);
  const user = await findUserByEmail(deps.db, email);
  if (!user) throw badRequest('account.invalidEmail');
  if (user.emailConfirmed) throw badRequest('account.alreadyConfirmed');
  const now = new Date();
  return deps.db.transaction(async (tx) => {
    const token = await consumeUserToken(tx, hashToken(body.token), 'EmailConfirm', now);
    if (!token || token.userId !== user.id || token.email.toLowerCase() !== user.email.toLowerCase()) {
      throw unauthorized('account.invalidToken');
    }
    const updated = await updateUser(tx, user.id, {
      emailConfirmed: true,
      lastSignedInAt: now,
      lastVisitedAt: now,
      registerAt: now,
    });
    return updated ?? user;
  });
}

export async function requestRecovery(
  deps: AccountDeps,
  ctx: RequestContext,
  body: { email: string; challenge?: string | null },
): Promise<void> {
  const { accountPolicy: policy } = await deps.settings.get();
  await checkCaptcha(deps, policy, ctx, body.challenge);
  if (!policy.emailConfirmationRequired) throw badRequest('account.recoveryDisabled');
  const user = await findUserByEmail(deps.db, body.email);
  if (!user) throw notFound('account.userNotFound');
  if (!user.emailConfirmed) throw notFound('account.emailNotConfirmed');
  const token = await issueToken(deps, user.id, 'PasswordReset', user.email);
  await sendAccountMail(deps, ctx, 'reset', { to: user.email, userName: user.userName, token });
}

export async function resetPassword(
  deps: AccountDeps,
  body: { password: string; email: string; rToken: string },
): Promise<void> {
  const { globalConfig } = await deps.settings.get();
  const password = decryptApiField(globalConfig, body.password, deps.env.xorKey);
  if (!password) throw badRequest('account.passwordRequired');
  const email = decodeEmailParam(body.email);
  const user = await findUserByEmail(deps.db, email);
  if (!user) throw badRequest('account.invalidEmail');
  checkPassword(password);
  const passwordHash = await hashPassword(password);
  await deps.db.transaction(async (tx) => {
    const token = await consumeUserToken(tx, hashToken(body.rToken), 'PasswordReset');
    // Mailed to the account's current address: a link sent to an address it has since left is void.
    if (!token || token.userId !== user.id || token.email.toLowerCase() !== user.email.toLowerCase()) {
      throw badRequest('account.invalidToken');
    }
    await updateUser(tx, user.id, { passwordHash });
    // Whoever knew the old password is signed out everywhere.
    await deleteUserSessions(tx, user.id);
  });
}

export async function changePassword(
  deps: AccountDeps,
  user: SessionUser,
  sessionId: string | null,
  body: { old: string; new: string },
): Promise<void> {
  const { globalConfig } = await deps.settings.get();
  const oldPassword = decryptApiField(globalConfig, body.old, deps.env.xorKey);
  const newPassword = decryptApiField(globalConfig, body.new, deps.env.xorKey);
  if (!oldPassword || !newPassword) throw badRequest('account.passwordRequired');
  const row = await currentRow(deps, user);
  if (!(await verifyPassword(row.passwordHash, oldPassword))) throw badRequest('account.wrongOldPassword');
  checkPassword(newPassword);
  const passwordHash = await hashPassword(newPassword);
  await deps.db.transaction(async (tx) => {
    await updateUser(tx, user.id, { passwordHash });
    await deleteUserSessions(tx, user.id, sessionId ?? undefined);
  });
}

export type ChangeEmailResult = { sent: true } | { sent: false };

export async function requestEmailChange(
  deps: AccountDeps,
  ctx: RequestContext,
  user: SessionUser,
  body: { newMail: string },
): Promise<ChangeEmailResult> {
  const { accountPolicy: policy } = await deps.settings.get();
  if (!policy.emailConfirmationRequired) return { sent: false };
  checkEmail(policy, body.newMail);
  if (await findUserByEmail(deps.db, body.newMail)) throw badRequest('account.emailTaken', { email: body.newMail });
  const row = await currentRow(deps, user);
  const token = await issueToken(deps, row.id, 'EmailChange', body.newMail);
  await sendAccountMail(deps, ctx, 'confirm', { to: body.newMail, userName: row.userName, token });
  return { sent: true };
}

export async function confirmEmailChange(
  deps: AccountDeps,
  user: SessionUser,
  body: { token: string; email: string },
): Promise<void> {
  const email = decodeEmailParam(body.email);
  await guardUnique(
    () =>
      deps.db.transaction(async (tx) => {
        const token = await consumeUserToken(tx, hashToken(body.token), 'EmailChange');
        // The token is bound to the user who asked and to the address it was mailed to.
        if (!token || token.userId !== user.id || token.email.toLowerCase() !== email.toLowerCase()) {
          throw badRequest('account.invalidToken');
        }
        await updateUser(tx, user.id, { email: token.email, emailConfirmed: true });
      }),
    { email },
  );
}

export interface ProfileUpdate {
  userName?: string | null;
  bio?: string | null;
  phone?: string | null;
  realName?: string | null;
  stdNumber?: string | null;
}

export async function updateProfile(deps: AccountDeps, user: SessionUser, body: ProfileUpdate): Promise<void> {
  const changes: UserChanges = {};
  if (body.userName != null) changes.userName = body.userName;
  if (body.bio != null) changes.bio = body.bio;
  if (body.realName != null) changes.realName = body.realName;
  if (body.stdNumber != null) changes.stdNumber = body.stdNumber;
  if (body.phone != null) {
    const valid = body.phone.length <= PHONE_MAX_LENGTH && PHONE_PATTERN.test(body.phone);
    if (body.phone !== '' && !valid) throw badRequest('account.invalidPhone');
    changes.phone = body.phone;
  }
  await guardUnique(() => updateUser(deps.db, user.id, changes), { userName: body.userName ?? undefined });
}

export interface ProfileUserInfo {
  userId: string;
  userName: string;
  email: string;
  bio: string;
  phone: string | null;
  realName: string;
  stdNumber: string;
  avatar: string | null;
  role: UserRow['role'];
}

export async function profile(deps: AccountDeps, user: SessionUser): Promise<ProfileUserInfo> {
  const row = await currentRow(deps, user);
  return {
    userId: row.id,
    userName: row.userName,
    email: row.email,
    bio: row.bio,
    phone: row.phone,
    realName: row.realName,
    stdNumber: row.stdNumber,
    avatar: avatarUrl(row.avatarHash),
    role: row.role,
  };
}

/** Avatars are 300 px wide WebP (reference §5.17); the previous picture loses its reference. */
export async function replaceAvatar(deps: AccountDeps, user: SessionUser, upload: Buffer): Promise<string> {
  const webp = await toWebp(upload, { width: 300 });
  const { dataDir } = deps.env;
  const { hash, unreferenced } = await deps.db.transaction(async (tx) => {
    // Locked: two uploads at once would both release the same old avatar (one reference too many,
    // taking another holder's file) and leave the first new one referenced by nothing.
    const current = await lockUserRow(tx, user.id);
    if (!current) throw unauthorized();
    const stored = await storeFile(tx, dataDir, { buffer: webp, name: 'avatar.webp' });
    await updateUser(tx, user.id, { avatarHash: stored.hash });
    // Re-uploading the same picture took a second reference above; releasing the old one balances it.
    const old = current.avatarHash;
    const deleted = old ? (await releaseFileRow(tx, old)) === 'deleted' : false;
    return { hash: stored.hash, unreferenced: deleted ? old : null };
  });
  // The blob goes only after the commit, so a rollback can never leave a row without its bytes.
  if (unreferenced) await removeBlob(deps.db, dataDir, unreferenced);
  return avatarUrl(hash)!;
}
