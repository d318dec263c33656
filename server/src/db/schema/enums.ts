import { pgEnum } from 'drizzle-orm/pg-core';
import { ChallengeCategory as contractCategories } from '../../contract/enums.generated';

// The strings are GZCTF 1.4.0's enum names, which are also what goes over the wire, so rows can be
// serialised without a mapping table. PostgreSQL compares enum values in declaration order, so the
// order below matters where it is meaningful (role: Banned < User < Monitor < Admin).

export const roles = ['Banned', 'User', 'Monitor', 'Admin'] as const;
export type Role = (typeof roles)[number];
export const roleEnum = pgEnum('role', roles);

// `Unsubmitted` is GZCTF's pseudo-status for "not joined"; it is kept so the enum matches the wire,
// but a stored participation is never in it.
export const participationStatuses = ['Pending', 'Accepted', 'Rejected', 'Suspended', 'Unsubmitted'] as const;
export type ParticipationStatus = (typeof participationStatuses)[number];
export const participationStatusEnum = pgEnum('participation_status', participationStatuses);

export const challengeTypes = ['StaticAttachment', 'StaticContainer', 'DynamicAttachment', 'DynamicContainer'] as const;
export type ChallengeType = (typeof challengeTypes)[number];
export const challengeTypeEnum = pgEnum('challenge_type', challengeTypes);

// Declaration order is GZCTF's enum order, which the scoreboard uses to order categories; the
// contract owns the list (the client lists categories from the same generated module).
export const challengeCategories = contractCategories;
export type ChallengeCategory = (typeof challengeCategories)[number];
export const challengeCategoryEnum = pgEnum('challenge_category', challengeCategories);

export const fileTypes = ['None', 'Local', 'Remote'] as const;
export type FileType = (typeof fileTypes)[number];
export const fileTypeEnum = pgEnum('file_type', fileTypes);

export const containerStatuses = ['Pending', 'Running', 'Destroyed'] as const;
export type ContainerStatus = (typeof containerStatuses)[number];
export const containerStatusEnum = pgEnum('container_status', containerStatuses);

export const noticeTypes = ['Normal', 'FirstBlood', 'SecondBlood', 'ThirdBlood', 'NewHint', 'NewChallenge'] as const;
export type NoticeType = (typeof noticeTypes)[number];
export const noticeTypeEnum = pgEnum('notice_type', noticeTypes);

export const eventTypes = ['Normal', 'ContainerStart', 'ContainerDestroy', 'FlagSubmit', 'CheatDetected'] as const;
export type EventType = (typeof eventTypes)[number];
export const eventTypeEnum = pgEnum('event_type', eventTypes);

export const answerResults = ['FlagSubmitted', 'Accepted', 'WrongAnswer', 'CheatDetected', 'NotFound'] as const;
export type AnswerResult = (typeof answerResults)[number];
export const answerResultEnum = pgEnum('answer_result', answerResults);

export const submissionTypes = ['Unaccepted', 'FirstBlood', 'SecondBlood', 'ThirdBlood', 'Normal'] as const;
export type SubmissionType = (typeof submissionTypes)[number];
export const submissionTypeEnum = pgEnum('submission_type', submissionTypes);

// Not a GZCTF enum: GZCTF keeps these tokens inside ASP.NET Identity; we store them ourselves.
export const userTokenPurposes = ['EmailConfirm', 'PasswordReset', 'EmailChange'] as const;
export type UserTokenPurpose = (typeof userTokenPurposes)[number];
export const userTokenPurposeEnum = pgEnum('user_token_purpose', userTokenPurposes);
