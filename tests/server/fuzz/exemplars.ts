import { randomBytes } from 'node:crypto';
import type { SeedIds } from './arbitraries';

/**
 * A body each of these operations accepts in the seeded world. Schema-shaped random values rarely
 * pass the business rules (a real team id, a password that meets the policy...), so the fuzzer also
 * breaks these known-good bodies one part at a time, which gets it past the first check and into the
 * handler's later paths.
 */
const tag = () => randomBytes(3).toString('hex');

const EXEMPLARS: Record<string, (ids: SeedIds) => unknown> = {
  accountLogIn: () => ({ userName: 'nobody', password: 'Passw0rd' }),
  accountUpdate: () => ({ bio: `bio ${tag()}`, realName: 'Fuzz' }),
  accountChangePassword: () => ({ old: 'Passw0rd', new: 'Passw0rd' }),
  accountRegister: () => ({ userName: `f${tag()}`, password: 'Passw0rd', email: `f${tag()}@example.com` }),
  adminAddUsers: () => [{ userName: `f${tag()}`, password: 'Passw0rd', email: `f${tag()}@example.com` }],
  adminUpdateUserInfo: () => ({ bio: 'set by admin' }),
  adminUpdateTeam: () => ({ bio: 'set by admin' }),
  adminParticipation: () => ({ status: 'Accepted' }),
  editAddPost: () => ({ title: `post ${tag()}`, content: 'text' }),
  editUpdatePost: () => ({ title: `post ${tag()}` }),
  editAddGame: () => ({ title: `game ${tag()}`, start: Date.now() - 3_600_000, end: Date.now() + 3_600_000 }),
  editUpdateGame: () => ({
    title: `game ${tag()}`,
    start: Date.now() - 3_600_000,
    end: Date.now() + 3_600_000,
    acceptWithoutReview: true,
  }),
  editAddGameNotice: () => ({ content: 'notice' }),
  editUpdateGameNotice: () => ({ content: 'notice edited' }),
  editAddGameChallenge: () => ({ title: `challenge ${tag()}`, category: 'Web', type: 'StaticAttachment' }),
  editUpdateGameChallenge: () => ({ content: 'edited', isEnabled: true }),
  editAddFlags: () => [{ flag: `flag{${tag()}}`, attachmentType: 'None' }],
  editUpdateAttachment: () => ({ attachmentType: 'Remote', remoteUrl: 'https://example.com/file' }),
  gameJoinGame: (ids) => ({ teamId: ids.team }),
  gameSubmit: () => ({ flag: 'flag{wrong}' }),
  teamCreateTeam: () => ({ name: `team ${tag()}` }),
  teamUpdateTeam: () => ({ bio: 'team bio' }),
  teamTransfer: (ids) => ({ newCaptainId: ids.users[0] }),
  teamAccept: () => `team:1:${'0'.repeat(32)}`,
};

export function exemplar(operationId: string): ((ids: SeedIds) => unknown) | undefined {
  return EXEMPLARS[operationId];
}
