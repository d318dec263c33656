import { randomInt } from 'node:crypto';
import type { Database, Db } from '../../db/client';
import { isForeignKeyViolation, isUniqueViolation } from '../../db/errors';
import type { components } from '../../contract/api.generated';
import { badRequest, type HttpError, notFound } from '../../lib/http-error';
import { searchPattern } from '../../lib/paging';
import type { SortRequest } from '../../lib/sorting';
import { hashPassword, hashPasswords, passwordProblem } from '../../lib/password';
import { avatarUrl } from '../../lib/blobs';
import { releaseFileRow, removeBlob } from '../attachments';
import { insertTeamWithMembers } from '../teams';
import {
  deleteUserSessions,
  findUserByEmail,
  findUserById,
  findUserByName,
  insertUser,
  updateUser,
  type UserChanges,
} from './account.repository';
import { checkEmailLength } from './account.service';
import { captainsTeamCount, countUsers, deleteUserRow, listUsers, searchUsers } from './users.repository';
import type { UserRow, UserSort } from './users.repository';

type Schemas = components['schemas'];
export type UserInfoModel = Schemas['UserInfoModel'];
export type ProfileUserInfoModel = Schemas['ProfileUserInfoModel'];
export type UserCreateModel = Schemas['UserCreateModel'];
export type AdminUserInfoModel = Schemas['AdminUserInfoModel'];

export const SEARCH_LIMIT = 30;

export function toUserInfo(user: UserRow): UserInfoModel {
  return {
    id: user.id,
    userName: user.userName,
    realName: user.realName,
    stdNumber: user.stdNumber,
    phone: user.phone,
    bio: user.bio,
    registerTimeUtc: user.registerAt.getTime(),
    lastVisitedUtc: user.lastVisitedAt.getTime(),
    ip: user.ip,
    email: user.email,
    avatar: avatarUrl(user.avatarHash),
    role: user.role,
    emailConfirmed: user.emailConfirmed,
  };
}

export function toProfile(user: UserRow): ProfileUserInfoModel {
  return {
    userId: user.id,
    userName: user.userName,
    email: user.email,
    bio: user.bio,
    phone: user.phone,
    realName: user.realName,
    stdNumber: user.stdNumber,
    avatar: avatarUrl(user.avatarHash),
    role: user.role,
  };
}

/** Maps a broken uniqueness rule on users to the field the admin has to change. */
function duplicateUser(
  error: unknown,
  values: { userName?: string | null; email?: string | null },
): HttpError | undefined {
  if (isUniqueViolation(error, 'users_user_name_lower_key')) {
    return badRequest('admin.users.nameTaken', { userName: values.userName });
  }
  if (isUniqueViolation(error, 'users_email_lower_key'))
    return badRequest('admin.users.emailTaken', { email: values.email });
  return undefined;
}

/** A page of users; with `search`, of the matching ones, and `total` counts the matches. */
export async function getUsers(
  db: Db,
  page: { count: number; skip: number; search?: string | undefined } & SortRequest<UserSort>,
) {
  const pattern = searchPattern(page.search);
  const [rows, total] = await Promise.all([listUsers(db, page, pattern), countUsers(db, pattern)]);
  return { data: rows.map(toUserInfo), length: rows.length, total };
}

export async function findUsers(db: Db, hint: string | undefined) {
  const rows = await searchUsers(db, (hint ?? '').trim(), SEARCH_LIMIT);
  return { data: rows.map(toUserInfo), length: rows.length, total: rows.length };
}

export async function getUserProfile(db: Db, id: string): Promise<ProfileUserInfoModel> {
  const user = await findUserById(db, id);
  if (!user) throw notFound('admin.users.notFound');
  return toProfile(user);
}

const blank = (value: string | null | undefined) => value === undefined || value === null || value.trim() === '';

/**
 * Creates users in one transaction (reference §2.2). An entry whose user name or e-mail already exists
 * updates that user and resets its password, as GZCTF does; `teamName` groups the entries into new
 * teams whose first member is the captain. Any failure rolls the whole batch back.
 */
export async function addUsers(db: Database, entries: UserCreateModel[]): Promise<{ users: number; teams: number }> {
  for (const entry of entries) {
    if (passwordProblem(entry.password)) throw badRequest('admin.users.weakPassword', { userName: entry.userName });
    checkEmailLength(entry.email);
  }
  // Hashing is the slow part (tens of ms each); doing it first keeps the transaction short.
  const hashes = await hashPasswords(entries.map((entry) => entry.password));

  return db.transaction(async (tx) => {
    const teamsByName = new Map<string, string[]>();
    for (const [index, entry] of entries.entries()) {
      const values = {
        userName: entry.userName,
        email: entry.email,
        passwordHash: hashes[index]!,
        emailConfirmed: true,
        ...(entry.realName != null ? { realName: entry.realName } : {}),
        ...(entry.stdNumber != null ? { stdNumber: entry.stdNumber } : {}),
        ...(entry.phone != null ? { phone: entry.phone } : {}),
      };
      let userId: string;
      try {
        // Identity reports a duplicate user name before a duplicate e-mail, so the name decides first.
        const existing = (await findUserByName(tx, entry.userName)) ?? (await findUserByEmail(tx, entry.email));
        if (existing) {
          await updateUser(tx, existing.id, values);
          // A reset password signs the user out everywhere.
          await deleteUserSessions(tx, existing.id);
          userId = existing.id;
        } else {
          userId = (await insertUser(tx, values)).id;
        }
      } catch (error) {
        throw duplicateUser(error, entry) ?? error;
      }
      if (!blank(entry.teamName)) {
        const name = entry.teamName!.trim();
        teamsByName.set(name, [...(teamsByName.get(name) ?? []), userId]);
      }
    }
    for (const [name, memberIds] of teamsByName) await insertTeamWithMembers(tx, name, memberIds);
    return { users: entries.length, teams: teamsByName.size };
  });
}

/**
 * Applies the non-null fields; the role takes effect on the user's next request (sessions re-read it).
 * The caller cannot take away their own Admin role or confirmation: with one admin nobody could give
 * it back (the start-up bootstrap only creates an admin while none is named Admin).
 */
export async function updateUserInfo(
  db: Db,
  callerId: string,
  id: string,
  model: AdminUserInfoModel,
): Promise<UserRow> {
  if (id === callerId && ((model.role != null && model.role !== 'Admin') || model.emailConfirmed === false)) {
    throw badRequest('admin.users.cannotLockOutSelf');
  }
  if (model.email != null) checkEmailLength(model.email);
  const changes: UserChanges = {};
  if (model.userName != null) changes.userName = model.userName;
  if (model.email != null) changes.email = model.email;
  if (model.bio != null) changes.bio = model.bio;
  if (model.phone != null) changes.phone = model.phone;
  if (model.realName != null) changes.realName = model.realName;
  if (model.stdNumber != null) changes.stdNumber = model.stdNumber;
  if (model.emailConfirmed != null) changes.emailConfirmed = model.emailConfirmed;
  if (model.role != null) changes.role = model.role;
  try {
    const user = await updateUser(db, id, changes);
    if (!user) throw notFound('admin.users.notFound');
    return user;
  } catch (error) {
    throw duplicateUser(error, model) ?? error;
  }
}

const PASSWORD_CLASSES = ['ABCDEFGHJKLMNPQRSTUVWXYZ', 'abcdefghijkmnopqrstuvwxyz', '23456789', '!@#$%^&*-_=+?'];
const PASSWORD_ALPHABET = PASSWORD_CLASSES.join('');

/** 16 random characters with at least one of each class, so it meets every password rule. */
export function randomPassword(length = 16): string {
  const chars = PASSWORD_CLASSES.map((set) => set[randomInt(set.length)]!);
  while (chars.length < length) chars.push(PASSWORD_ALPHABET[randomInt(PASSWORD_ALPHABET.length)]!);
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  return chars.join('');
}

/** Sets a new random password, signs the user out everywhere and returns the password. */
export async function resetUserPassword(db: Database, id: string): Promise<{ password: string; user: UserRow }> {
  const password = randomPassword();
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    const user = await updateUser(tx, id, { passwordHash });
    if (!user) throw notFound('admin.users.notFound');
    await deleteUserSessions(tx, id);
    return { password, user };
  });
}

/** Deletes a user who is not the caller and captains no team; the avatar reference is released. */
export async function deleteUser(db: Database, dataDir: string, callerId: string, id: string): Promise<UserRow> {
  if (id === callerId) throw badRequest('admin.users.cannotDeleteSelf');
  let removedAvatar: string | undefined;
  const user = await db.transaction(async (tx) => {
    const existing = await findUserById(tx, id);
    if (!existing) throw notFound('admin.users.notFound');
    if ((await captainsTeamCount(tx, id)) > 0)
      throw badRequest('admin.users.isCaptain', { userName: existing.userName });
    let deleted: UserRow | undefined;
    try {
      deleted = await deleteUserRow(tx, id);
    } catch (error) {
      // A team created between the check and the delete: the foreign key refuses it.
      if (isForeignKeyViolation(error)) throw badRequest('admin.users.isCaptain', { userName: existing.userName });
      throw error;
    }
    if (!deleted) throw notFound('admin.users.notFound');
    if (deleted.avatarHash && (await releaseFileRow(tx, deleted.avatarHash)) === 'deleted') {
      removedAvatar = deleted.avatarHash;
    }
    return deleted;
  });
  if (removedAvatar) await removeBlob(db, dataDir, removedAvatar);
  return user;
}
