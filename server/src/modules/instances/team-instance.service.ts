import type { components } from '../../contract/api.generated';
import type { Database, Db } from '../../db/client';
import { generateDynamicFlag, teamHash } from '../../lib/flag-template';
import { teamHashSalt } from '../../lib/game-keys';
import { notFound } from '../../lib/http-error';
import { challengeScore } from '../../lib/scoring';
import type { SessionUser } from '../../plugins/app/auth';
import { findAttachments, toAttachmentModel } from '../attachments';
import { findEnabledChallenge, findFlagAttachmentId, takeFreeFlag, type ChallengeRow } from '../challenges';
import type { GameRow } from '../games';
import { playContext, type ParticipationRow } from '../participations';
import { findTeamInstance, lockOrCreateInstance, setInstanceFlag, type InstanceRow } from './instances.repository';

/**
 * A team's instance of a challenge: made on first use, with the team's dynamic flag, and the
 * challenge as the team sees it (its view is what first makes the instance).
 */

type Schemas = components['schemas'];

/**
 * The team's instance of a challenge, locked, created on first use, with its dynamic flag assigned
 * (DynamicAttachment: a random free flag; DynamicContainer: generated from the template, once, so a
 * re-created container keeps the team's flag). Call inside a transaction.
 */
export async function prepareInstance(
  tx: Db,
  game: GameRow,
  participation: ParticipationRow,
  challenge: ChallengeRow,
): Promise<InstanceRow> {
  const row = await lockOrCreateInstance(tx, participation.id, challenge.id);
  if (challenge.type === 'DynamicAttachment' && row.flagId === null) {
    const flagId = await takeFreeFlag(tx, challenge.id);
    if (flagId === undefined) throw notFound('game.noFlagAvailable');
    await setInstanceFlag(tx, row.id, { flagId });
    return { ...row, flagId };
  }
  if (challenge.type === 'DynamicContainer' && row.flag === null) {
    const hash = teamHash(teamHashSalt(game.privateKey), challenge.id, participation.token);
    const flag = generateDynamicFlag(challenge.flagTemplate, hash);
    await setInstanceFlag(tx, row.id, { flag });
    return { ...row, flag };
  }
  return row;
}

/** Whether `prepareInstance` would leave the instance as it is: nothing to assign. */
function instanceReady(challenge: ChallengeRow, row: InstanceRow): boolean {
  if (challenge.type === 'DynamicAttachment') return row.flagId !== null;
  if (challenge.type === 'DynamicContainer') return row.flag !== null;
  return true;
}

/** What a team's view of a challenge uses of the app: the database and the instance service (for a container's entry). */
export interface ChallengeDetailDeps {
  db: Database;
  instances: { contextOf(instanceId: number): Promise<{ closeTime: number | null; instanceEntry: string | null }> };
}

/**
 * A challenge as the team sees it. The team's instance is created on first access, and a dynamic
 * flag assigned (DynamicAttachment: a random free flag; DynamicContainer: generated from the template).
 */
export async function challengeDetail(
  deps: ChallengeDetailDeps,
  gameId: number,
  challengeId: number,
  user: SessionUser,
): Promise<Schemas['ChallengeDetailModel']> {
  const db = deps.db;
  const { game, participation } = await playContext(db, gameId, user);
  const challenge = await findEnabledChallenge(db, gameId, challengeId);
  if (!challenge) throw notFound('game.challengeNotFound');
  // Opened by every player of every team, often at once when a game starts: an instance that is
  // ready (a static challenge's, or a dynamic one's with its flag) is read without a transaction,
  // whose row lock costs a WAL flush at commit.
  const known = await findTeamInstance(db, participation.id, challenge.id);
  const instance =
    known && instanceReady(challenge, known)
      ? known
      : await db.transaction((tx) => prepareInstance(tx, game, participation, challenge));
  let url: string | null = null;
  let fileSize: number | null = null;
  const attachmentId =
    challenge.type === 'DynamicAttachment'
      ? await findFlagAttachmentId(db, instance.flagId!)
      : challenge.type === 'StaticAttachment'
        ? challenge.attachmentId
        : null;
  if (attachmentId !== null) {
    const view = (await findAttachments(db, [attachmentId])).get(attachmentId);
    const model = toAttachmentModel(
      view && challenge.type === 'DynamicAttachment' ? { ...view, fileName: challenge.fileName } : view,
    );
    url = model?.url ?? null;
    fileSize = model?.fileSize ?? null;
  }
  return {
    id: challenge.id,
    title: challenge.title,
    content: challenge.content,
    category: challenge.category,
    hints: challenge.hints,
    score: challengeScore(challenge),
    type: challenge.type,
    context: {
      // Only container challenges have an instance to show (one query fewer for the rest).
      ...(challenge.type === 'StaticContainer' || challenge.type === 'DynamicContainer'
        ? await deps.instances.contextOf(instance.id)
        : { closeTime: null, instanceEntry: null }),
      url,
      fileSize,
    },
  };
}
