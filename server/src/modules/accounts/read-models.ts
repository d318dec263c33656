import { users } from '../../db/schema/users';
import { readModel } from '../../lib/read-model';

// What other modules may read of users (lib/read-model.ts): the profile, never the password hash,
// sessions or mail tokens.

export const userRows = <TAlias extends string = 'user_rows'>(alias: TAlias = 'user_rows' as TAlias) =>
  readModel
    .select({
      id: users.id,
      userName: users.userName,
      email: users.email,
      emailConfirmed: users.emailConfirmed,
      role: users.role,
      ip: users.ip,
      lastSignedInAt: users.lastSignedInAt,
      lastVisitedAt: users.lastVisitedAt,
      registerAt: users.registerAt,
      bio: users.bio,
      realName: users.realName,
      stdNumber: users.stdNumber,
      phone: users.phone,
      avatarHash: users.avatarHash,
    })
    .from(users)
    .as(alias);
