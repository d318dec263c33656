import { textKey, type TextRef } from '@/shared/text/textRef';
import type { ChallengeCategoryName } from '@/shared/lib/challengeCategory';

/** The four challenge types of the contract. */
export const CHALLENGE_TYPES = [
  'StaticAttachment',
  'StaticContainer',
  'DynamicAttachment',
  'DynamicContainer',
] as const;
export type ChallengeTypeName = (typeof CHALLENGE_TYPES)[number];

export const isContainerType = (type: string) => type === 'StaticContainer' || type === 'DynamicContainer';
/** Types whose one attachment sits on the challenge (DynamicAttachment has one per flag). */
export const hasChallengeAttachment = (type: string) => type === 'StaticAttachment' || type === 'StaticContainer';

/**
 * Limits the server enforces (server/src/modules/challenges/challenges.service.ts and the contract's
 * ChallengeUpdateModel): checked here too so a mistake shows next to its field before a round trip.
 */
export const LIMITS = {
  flag: 127,
  originalScore: { min: 1, max: 100_000 },
  memoryLimit: { min: 32, max: 1_048_576 },
  cpuCount: { min: 1, max: 1024 },
  storageLimit: { min: 128, max: 1_048_576 },
  pidsLimit: { min: 16, max: 65_536 },
  port: { min: 1, max: 65_535 },
  flagTemplate: 120,
  fileName: 255,
} as const;

/** The process limit a container gets when the challenge has none stored (the contract's default). */
export const DEFAULT_PIDS_LIMIT = 256;

/** The editable fields as the form holds them: numbers stay text while typed. */
export interface ChallengeForm {
  title: string;
  category: ChallengeCategoryName;
  content: string;
  hints: string[];
  originalScore: string;
  minScoreRate: string;
  difficulty: string;
  disableBloodBonus: boolean;
  fileName: string;
  flagTemplate: string;
  containerImage: string;
  cpuCount: string;
  memoryLimit: string;
  storageLimit: string;
  pidsLimit: string;
  containerExposePort: string;
  enableTrafficCapture: boolean;
}

export interface StoredChallenge {
  title: string;
  category: string;
  content: string;
  hints: string[];
  originalScore: number;
  minScoreRate: number;
  difficulty: number;
  disableBloodBonus?: boolean | null;
  fileName?: string | null;
  flagTemplate?: string | null;
  containerImage: string;
  cpuCount: number;
  memoryLimit: number;
  storageLimit: number;
  /** Beyond GZCTF; absent from a GZCTF server, which has no such limit. */
  pidsLimit?: number | null;
  containerExposePort: number;
  enableTrafficCapture?: boolean | null;
}

export function formFromChallenge(challenge: StoredChallenge): ChallengeForm {
  return {
    title: challenge.title,
    category: challenge.category as ChallengeCategoryName,
    content: challenge.content,
    hints: [...challenge.hints],
    originalScore: String(challenge.originalScore),
    minScoreRate: String(challenge.minScoreRate),
    difficulty: String(challenge.difficulty),
    disableBloodBonus: challenge.disableBloodBonus ?? false,
    fileName: challenge.fileName ?? 'attachment',
    flagTemplate: challenge.flagTemplate ?? '',
    containerImage: challenge.containerImage,
    cpuCount: String(challenge.cpuCount),
    memoryLimit: String(challenge.memoryLimit),
    storageLimit: String(challenge.storageLimit),
    pidsLimit: String(challenge.pidsLimit ?? DEFAULT_PIDS_LIMIT),
    containerExposePort: String(challenge.containerExposePort),
    enableTrafficCapture: challenge.enableTrafficCapture ?? false,
  };
}

/** A typed number, or NaN for anything that is not plainly one ("", "1e", "12abc"). */
export function parseNumber(text: string): number {
  const trimmed = text.trim();
  return trimmed === '' ? Number.NaN : Number(trimmed);
}

function integerIn(text: string, { min, max }: { min: number; max: number }): TextRef | undefined {
  const value = parseNumber(text);
  if (!Number.isInteger(value) || value < min || value > max) {
    return textKey('challengeEdit:validation.integerRange', { min, max });
  }
  return undefined;
}

export type FormErrors = Partial<Record<keyof ChallengeForm, TextRef>>;

/** Why each field cannot be saved as typed; empty when the form can go to the server. */
export function validateForm(form: ChallengeForm, type: string): FormErrors {
  const errors: FormErrors = {};
  if (!form.title.trim()) errors.title = textKey('challengeEdit:validation.titleRequired');
  const score = integerIn(form.originalScore, LIMITS.originalScore);
  if (score) errors.originalScore = score;
  const rate = parseNumber(form.minScoreRate);
  if (!(rate >= 0 && rate <= 1)) errors.minScoreRate = textKey('challengeEdit:validation.rate');
  if (!(parseNumber(form.difficulty) > 0)) errors.difficulty = textKey('challengeEdit:validation.difficulty');
  if (type === 'DynamicAttachment') {
    const name = form.fileName.trim();
    if (!name) errors.fileName = textKey('challengeEdit:validation.fileNameRequired');
    // eslint-disable-next-line no-control-regex -- the server refuses control characters in download names
    else if (/[\\/\u0000-\u001f\u007f]/.test(name) || [...name].length > LIMITS.fileName) {
      errors.fileName = textKey('challengeEdit:validation.fileNameInvalid', { max: LIMITS.fileName });
    }
  }
  if (isContainerType(type)) {
    const checks = [
      ['cpuCount', LIMITS.cpuCount],
      ['memoryLimit', LIMITS.memoryLimit],
      ['storageLimit', LIMITS.storageLimit],
      ['pidsLimit', LIMITS.pidsLimit],
      ['containerExposePort', LIMITS.port],
    ] as const;
    for (const [field, range] of checks) {
      const error = integerIn(form[field], range);
      if (error) errors[field] = error;
    }
  }
  if (type === 'DynamicContainer' && [...form.flagTemplate].length > LIMITS.flagTemplate) {
    errors.flagTemplate = textKey('challengeEdit:validation.templateTooLong', { max: LIMITS.flagTemplate });
  }
  return errors;
}

/** Hints as stored: trimmed, without empty lines. */
export const cleanHints = (hints: readonly string[]) => hints.map((hint) => hint.trim()).filter(Boolean);

/**
 * The ChallengeUpdateModel for a valid form. Fields that do not apply to the type are left out (null
 * keeps the stored value), so saving a static challenge never trips the container-only rules; the
 * enable switch is separate and sends only `isEnabled`.
 */
export function updateModel(form: ChallengeForm, type: string) {
  const container = isContainerType(type);
  return {
    title: form.title.trim(),
    category: form.category,
    content: form.content,
    hints: cleanHints(form.hints),
    originalScore: parseNumber(form.originalScore),
    minScoreRate: parseNumber(form.minScoreRate),
    difficulty: parseNumber(form.difficulty),
    disableBloodBonus: form.disableBloodBonus,
    ...(type === 'DynamicAttachment' ? { fileName: form.fileName.trim() } : {}),
    // "" clears the template (flags become flag{GUID}); the server refuses a guessable one.
    ...(type === 'DynamicContainer' ? { flagTemplate: form.flagTemplate } : {}),
    ...(container
      ? {
          containerImage: form.containerImage.trim(),
          cpuCount: parseNumber(form.cpuCount),
          memoryLimit: parseNumber(form.memoryLimit),
          storageLimit: parseNumber(form.storageLimit),
          pidsLimit: parseNumber(form.pidsLimit),
          containerExposePort: parseNumber(form.containerExposePort),
          enableTrafficCapture: form.enableTrafficCapture,
        }
      : {}),
  };
}

/** One flag per non-empty line, trimmed, each once (the server compares answers trimmed). */
export function parseFlagLines(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter(Boolean),
    ),
  ];
}

/** Why these flags cannot be added; undefined when they can (the contract allows 1–127 characters). */
export function flagLinesError(flags: readonly string[]): TextRef | undefined {
  if (flags.length === 0) return textKey('challengeEdit:validation.flagRequired');
  const long = flags.find((flag) => [...flag].length > LIMITS.flag);
  return long ? textKey('challengeEdit:validation.flagTooLong', { max: LIMITS.flag }) : undefined;
}
