import type { components } from '../../contract/api.generated';
import type { Database, Db } from '../../db/client';
import type { ChallengeType } from '../../db/schema/enums';
import { isTrivialTemplate, longestFlagLength, MAX_FLAG_LENGTH } from '../../lib/flag-template';
import { badRequest, notFound } from '../../lib/http-error';
import { challengeScore, minimumScore } from '../../lib/scoring';
import {
  createAttachment,
  findAttachments,
  dropAttachments,
  parseAttachment,
  removeBlobs,
  toAttachmentModel,
  type AttachmentSpec,
} from '../attachments';
import {
  challengeLeftovers,
  countFlags,
  deleteChallengeRow,
  deleteFlagRow,
  findChallenge,
  insertChallenge,
  insertFlags,
  listChallenges,
  listFlags,
  lockChallenge,
  recomputeAcceptedCounts,
  updateChallenge,
  type ChallengeChanges,
  type ChallengeRow,
} from './challenges.repository';
import { bus } from '../../lib/bus';
import { deleteTestContainers, ensureInstancesForChallenge, findContainer, toContainerInfo } from '../instances';
import { requireGame, type GameRow } from '../games';
import { rejectNul } from '../../lib/text';
import { insertNotice, toGameNotice, type GameNotice } from '../notices';

type Schemas = components['schemas'];
type ChallengeInfoModel = Schemas['ChallengeInfoModel'];
type ChallengeEditDetailModel = Schemas['ChallengeEditDetailModel'];
type ChallengeUpdateModel = Schemas['ChallengeUpdateModel'];
type FlagCreateModel = Schemas['FlagCreateModel'];
type AttachmentCreateModel = Schemas['AttachmentCreateModel'];
type TaskStatus = Schemas['TaskStatus'];

/**
 * The largest original score we accept. GZCTF has no limit; 100 000 keeps a scoreboard total of
 * thousands of challenges with doubled blood bonuses inside the contract's int32.
 */
export const MAX_ORIGINAL_SCORE = 100_000;
const MAX_FILE_NAME_LENGTH = 255;

export const isContainerType = (type: ChallengeType) => type === 'StaticContainer' || type === 'DynamicContainer';

const scoreOf = (challenge: ChallengeRow) =>
  challengeScore({
    originalScore: challenge.originalScore,
    minScoreRate: challenge.minScoreRate,
    difficulty: challenge.difficulty,
    acceptedCount: challenge.acceptedCount,
  });

export function toChallengeInfo(challenge: ChallengeRow): ChallengeInfoModel {
  return {
    id: challenge.id,
    title: challenge.title,
    category: challenge.category,
    type: challenge.type,
    isEnabled: challenge.isEnabled,
    score: scoreOf(challenge),
    minScore: minimumScore(challenge.originalScore, challenge.minScoreRate),
    originalScore: challenge.originalScore,
  };
}

async function challengeDetail(db: Db, challenge: ChallengeRow): Promise<ChallengeEditDetailModel> {
  // GZCTF does not load the flags of DynamicContainer challenges: theirs are generated per team.
  const flagRows = challenge.type === 'DynamicContainer' ? [] : await listFlags(db, challenge.id);
  const attachmentIds = [challenge.attachmentId, ...flagRows.map((flag) => flag.attachmentId)].filter(
    (id): id is number => id !== null,
  );
  const attachments = await findAttachments(db, attachmentIds);
  const container = challenge.testContainerId ? await findContainer(db, challenge.testContainerId) : undefined;
  const attachmentOf = (id: number | null) => (id === null ? null : toAttachmentModel(attachments.get(id)));
  return {
    id: challenge.id,
    title: challenge.title,
    content: challenge.content,
    category: challenge.category,
    type: challenge.type,
    hints: challenge.hints,
    flagTemplate: challenge.flagTemplate,
    isEnabled: challenge.isEnabled,
    acceptedCount: challenge.acceptedCount,
    fileName: challenge.fileName,
    attachment: attachmentOf(challenge.attachmentId),
    testContainer: container ? toContainerInfo(container) : null,
    flags: flagRows.map((flag) => ({ id: flag.id, flag: flag.flag, attachment: attachmentOf(flag.attachmentId) })),
    containerImage: challenge.containerImage ?? '',
    memoryLimit: challenge.memoryLimit,
    cpuCount: challenge.cpuCount,
    storageLimit: challenge.storageLimit,
    pidsLimit: challenge.pidsLimit,
    containerExposePort: challenge.containerExposePort,
    enableTrafficCapture: challenge.enableTrafficCapture,
    disableBloodBonus: challenge.disableBloodBonus,
    originalScore: challenge.originalScore,
    minScoreRate: challenge.minScoreRate,
    difficulty: challenge.difficulty,
  };
}

async function requireChallenge(db: Db, gameId: number, id: number): Promise<ChallengeRow> {
  const challenge = await findChallenge(db, gameId, id);
  if (!challenge) throw notFound('edit.challenges.notFound');
  return challenge;
}

async function requireLockedChallenge(tx: Db, gameId: number, id: number): Promise<ChallengeRow> {
  const challenge = await lockChallenge(tx, gameId, id);
  if (!challenge) throw notFound('edit.challenges.notFound');
  return challenge;
}

export async function getChallenges(db: Db, gameId: number): Promise<ChallengeInfoModel[]> {
  await requireGame(db, gameId);
  return (await listChallenges(db, gameId)).map(toChallengeInfo);
}

export async function getChallenge(db: Db, gameId: number, id: number): Promise<ChallengeEditDetailModel> {
  await requireGame(db, gameId);
  return challengeDetail(db, await requireChallenge(db, gameId, id));
}

/**
 * Creates a disabled challenge from its title, category and type; everything else takes GZCTF's
 * entity defaults (score 1000, rate 0.25, difficulty 5, 64 MB, 0.1 CPU, 256 MB, port 80).
 */
export async function createChallenge(
  db: Db,
  gameId: number,
  model: ChallengeInfoModel,
): Promise<ChallengeEditDetailModel> {
  if (model.title.trim() === '') throw badRequest('edit.challenges.titleRequired');
  rejectNul(model.title);
  await requireGame(db, gameId);
  const challenge = await insertChallenge(db, {
    gameId,
    title: model.title,
    category: model.category,
    type: model.type,
    isEnabled: false,
  });
  return challengeDetail(db, challenge);
}

const sameHints = (a: readonly string[], b: readonly string[]) => {
  const left = new Set(a);
  const right = new Set(b);
  return left.size === right.size && [...left].every((hint) => right.has(hint));
};

/**
 * The column changes a ChallengeUpdateModel asks for (null or missing keeps a field), or a 400. On top
 * of the contract's ranges: a title and file name must not be blank, the original score is 1 to
 * 100 000, the difficulty positive, the port 1–65535, traffic capture is for container types only
 * and a DynamicContainer template must make flags a player can submit (no surrounding whitespace, at
 * most MAX_FLAG_LENGTH long) that are not guessable (reference §5.5, §5.7).
 */
export function challengeChanges(challenge: ChallengeRow, model: ChallengeUpdateModel): ChallengeChanges {
  rejectNul(model.title, model.content, model.flagTemplate, model.hints, model.fileName, model.containerImage);
  const changes: ChallengeChanges = {};
  if (model.title !== null && model.title !== undefined) {
    if (model.title.trim() === '') throw badRequest('edit.challenges.titleRequired');
    changes.title = model.title;
  }
  if (model.content !== null && model.content !== undefined) changes.content = model.content;
  if (model.flagTemplate !== null && model.flagTemplate !== undefined) {
    // An empty (or blank) template clears it: DynamicContainer flags then default to flag{GUID}.
    const template = model.flagTemplate.trim() === '' ? null : model.flagTemplate;
    if (challenge.type === 'DynamicContainer' && template !== null) {
      // Submissions are trimmed and at most MAX_FLAG_LENGTH long: a flag with surrounding whitespace
      // or a longer one could never be answered.
      if (template !== template.trim()) throw badRequest('edit.challenges.templateWhitespace');
      if (longestFlagLength(template) > MAX_FLAG_LENGTH) {
        throw badRequest('edit.challenges.templateTooLong', { limit: MAX_FLAG_LENGTH });
      }
      if (isTrivialTemplate(template)) throw badRequest('edit.challenges.trivialTemplate');
    }
    changes.flagTemplate = template;
  }
  if (model.category !== null && model.category !== undefined) changes.category = model.category;
  if (model.hints !== null && model.hints !== undefined) changes.hints = model.hints;
  if (model.isEnabled !== null && model.isEnabled !== undefined) changes.isEnabled = model.isEnabled;
  if (model.fileName !== null && model.fileName !== undefined) {
    const fileName = model.fileName.trim();
    if (fileName === '') throw badRequest('edit.challenges.fileNameRequired');
    // The name becomes a download's Content-Disposition: control characters are refused on purpose.
    // eslint-disable-next-line no-control-regex
    if (/[\\/\u0000-\u001f\u007f]/.test(fileName) || [...fileName].length > MAX_FILE_NAME_LENGTH) {
      throw badRequest('edit.challenges.invalidFileName', { limit: MAX_FILE_NAME_LENGTH });
    }
    changes.fileName = fileName;
  }
  if (model.containerImage !== null && model.containerImage !== undefined) {
    changes.containerImage = model.containerImage.trim();
  }
  if (model.memoryLimit !== null && model.memoryLimit !== undefined) changes.memoryLimit = model.memoryLimit;
  if (model.cpuCount !== null && model.cpuCount !== undefined) changes.cpuCount = model.cpuCount;
  if (model.storageLimit !== null && model.storageLimit !== undefined) changes.storageLimit = model.storageLimit;
  if (model.pidsLimit !== null && model.pidsLimit !== undefined) changes.pidsLimit = model.pidsLimit;
  if (model.containerExposePort !== null && model.containerExposePort !== undefined) {
    if (model.containerExposePort < 1 || model.containerExposePort > 65535) {
      throw badRequest('edit.challenges.invalidPort');
    }
    changes.containerExposePort = model.containerExposePort;
  }
  if (model.enableTrafficCapture !== null && model.enableTrafficCapture !== undefined) {
    if (model.enableTrafficCapture && !isContainerType(challenge.type)) {
      throw badRequest('edit.challenges.trafficCaptureNotContainer');
    }
    changes.enableTrafficCapture = model.enableTrafficCapture;
  }
  if (model.disableBloodBonus !== null && model.disableBloodBonus !== undefined) {
    changes.disableBloodBonus = model.disableBloodBonus;
  }
  if (model.originalScore !== null && model.originalScore !== undefined) {
    if (model.originalScore < 1 || model.originalScore > MAX_ORIGINAL_SCORE) {
      throw badRequest('edit.challenges.invalidScore', { limit: MAX_ORIGINAL_SCORE });
    }
    changes.originalScore = model.originalScore;
  }
  if (model.minScoreRate !== null && model.minScoreRate !== undefined) {
    if (model.minScoreRate < 0 || model.minScoreRate > 1) throw badRequest('edit.challenges.invalidMinScoreRate');
    changes.minScoreRate = model.minScoreRate;
  }
  if (model.difficulty !== null && model.difficulty !== undefined) {
    if (!(model.difficulty > 0)) throw badRequest('edit.challenges.invalidDifficulty');
    changes.difficulty = model.difficulty;
  }
  return changes;
}

const isActive = (game: GameRow, now = Date.now()) => game.startAt.getTime() <= now && now <= game.endAt.getTime();

/**
 * Applies a partial update in one transaction. Enabling needs a flag (unless DynamicContainer, whose
 * flags are generated), links the challenge to every participation, and while the game runs tells the
 * players (NewChallenge). A changed hint set of a challenge that was and stays enabled in a running
 * game is announced (NewHint). Unlike GZCTF, which announces every update that carries
 * `isEnabled: true`, only the change from disabled to enabled counts, and a challenge that appears
 * now gets no separate hint notice.
 */
export async function editChallenge(
  db: Database,
  gameId: number,
  id: number,
  model: ChallengeUpdateModel,
): Promise<ChallengeEditDetailModel> {
  const game = await requireGame(db, gameId);
  const notices = await db.transaction(async (tx) => {
    const challenge = await requireLockedChallenge(tx, gameId, id);
    const changes = challengeChanges(challenge, model);
    const enabling = changes.isEnabled === true && !challenge.isEnabled;
    if (enabling && challenge.type !== 'DynamicContainer' && (await countFlags(tx, id)) === 0) {
      throw badRequest('edit.challenges.noFlags');
    }
    const updated = await updateChallenge(tx, id, changes);
    if (enabling) await ensureInstancesForChallenge(tx, gameId, id);
    const posted: GameNotice[] = [];
    if (isActive(game)) {
      if (enabling) {
        posted.push(toGameNotice(await insertNotice(tx, { gameId, type: 'NewChallenge', values: [updated.title] })));
      } else if (
        challenge.isEnabled &&
        updated.isEnabled &&
        changes.hints !== undefined &&
        !sameHints(challenge.hints, updated.hints)
      ) {
        posted.push(toGameNotice(await insertNotice(tx, { gameId, type: 'NewHint', values: [updated.title] })));
      }
    }
    return posted;
  });
  for (const notice of notices) bus.emit('noticePublished', { gameId, notice });
  bus.emit('scoreboardChanged', { gameId, cause: 'edit' });
  return getChallenge(db, gameId, id);
}

/** Deletes a challenge with its attachment, flags and their attachments; files are released. */
export async function deleteChallenge(db: Database, dataDir: string, gameId: number, id: number): Promise<void> {
  await requireGame(db, gameId);
  const removed = await db.transaction(async (tx) => {
    const challenge = await requireLockedChallenge(tx, gameId, id);
    const leftovers = await challengeLeftovers(tx, challenge);
    await deleteChallengeRow(tx, id);
    const hashes = await dropAttachments(tx, leftovers.attachmentIds, leftovers.attachmentHashes);
    await deleteTestContainers(tx, leftovers.testContainerIds);
    return { hashes, containerIds: leftovers.runtimeContainerIds };
  });
  await removeBlobs(db, dataDir, removed.hashes);
  if (removed.containerIds.length > 0) bus.emit('containersRemoved', { containerIds: removed.containerIds });
  bus.emit('challengesRemoved', { challengeIds: [id] });
  bus.emit('scoreboardChanged', { gameId, cause: 'edit' });
}

/**
 * Replaces the attachment of a challenge that is not DynamicAttachment (those carry one per flag).
 * `None` removes it. The previous attachment and its file reference go in the same transaction.
 */
export async function setAttachment(
  db: Database,
  dataDir: string,
  gameId: number,
  id: number,
  model: AttachmentCreateModel,
): Promise<void> {
  await requireGame(db, gameId);
  const gone = await db.transaction(async (tx) => {
    const challenge = await requireLockedChallenge(tx, gameId, id);
    if (challenge.type === 'DynamicAttachment') throw badRequest('edit.attachments.dynamicAttachment');
    const attachmentId = await createAttachment(tx, parseAttachment(model));
    await updateChallenge(tx, id, { attachmentId: attachmentId ?? null });
    if (challenge.attachmentId === null) return [];
    const [previous] = [...(await findAttachments(tx, [challenge.attachmentId])).values()];
    return dropAttachments(tx, [challenge.attachmentId], previous?.localFileHash ? [previous.localFileHash] : []);
  });
  await removeBlobs(db, dataDir, gone);
}

/**
 * Adds flags in one transaction: all or none. Flags are trimmed (answers are compared trimmed).
 * DynamicAttachment flags each need their own attachment; static flags take none; DynamicContainer
 * challenges take no flags at all, since theirs come from the template (stricter than GZCTF, which
 * stores flags there that nothing ever reads).
 */
export async function addFlags(db: Database, gameId: number, id: number, models: FlagCreateModel[]): Promise<void> {
  await requireGame(db, gameId);
  const challenge = await requireChallenge(db, gameId, id);
  if (challenge.type === 'DynamicContainer') throw badRequest('edit.flags.dynamicContainer');
  const parsed = models.map((model): { flag: string; attachment: AttachmentSpec } => {
    rejectNul(model.flag);
    const flag = model.flag.trim();
    if (flag === '') throw badRequest('edit.flags.flagRequired');
    const attachment = parseAttachment(model);
    if (challenge.type === 'DynamicAttachment' && attachment.type === 'None') {
      throw badRequest('edit.flags.attachmentRequired');
    }
    if (challenge.type !== 'DynamicAttachment' && attachment.type !== 'None') {
      throw badRequest('edit.flags.attachmentNotAllowed');
    }
    return { flag, attachment };
  });
  await db.transaction(async (tx) => {
    await requireLockedChallenge(tx, gameId, id);
    const rows = [];
    for (const { flag, attachment } of parsed) {
      rows.push({ challengeId: id, flag, attachmentId: (await createAttachment(tx, attachment)) ?? null });
    }
    await insertFlags(tx, rows);
  });
}

/**
 * Removes a flag and its attachment: `NotFound` when the challenge has no such flag. Removing the last
 * flag of a challenge that needs flags disables it.
 */
export async function removeFlag(
  db: Database,
  dataDir: string,
  gameId: number,
  id: number,
  flagId: number,
): Promise<TaskStatus> {
  await requireGame(db, gameId);
  const result = await db.transaction(async (tx) => {
    const challenge = await requireLockedChallenge(tx, gameId, id);
    const flag = await deleteFlagRow(tx, id, flagId);
    if (!flag) return { status: 'NotFound' as const, gone: [] };
    let gone: string[] = [];
    if (flag.attachmentId !== null) {
      const [attachment] = [...(await findAttachments(tx, [flag.attachmentId])).values()];
      gone = await dropAttachments(
        tx,
        [flag.attachmentId],
        attachment?.localFileHash ? [attachment.localFileHash] : [],
      );
    }
    if (challenge.isEnabled && challenge.type !== 'DynamicContainer' && (await countFlags(tx, id)) === 0) {
      await updateChallenge(tx, id, { isEnabled: false });
    }
    return { status: 'Success' as const, gone };
  });
  await removeBlobs(db, dataDir, result.gone);
  if (result.status === 'Success') bus.emit('scoreboardChanged', { gameId, cause: 'edit' });
  return result.status;
}

/** Recounts every challenge's accepted count from the solves of Accepted participations. */
export async function updateAcceptedCounts(db: Database, gameId: number): Promise<void> {
  const game = await requireGame(db, gameId);
  await db.transaction((tx) => recomputeAcceptedCounts(tx, gameId, game.endAt));
  bus.emit('scoreboardChanged', { gameId, cause: 'edit' });
}
