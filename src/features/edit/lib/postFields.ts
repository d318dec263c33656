import { textKey, type TextRef } from '@/shared/text/textRef';

/** The contract's limit on a post title (PostEditModel: 1–50 characters). */
export const POST_TITLE_MAX = 50;

/** Why a title cannot be saved; undefined when it can. */
export function postTitleError(title: string): TextRef | undefined {
  if (!title.trim()) return textKey('posts:editor.titleRequired');
  if ([...title.trim()].length > POST_TITLE_MAX) return textKey('posts:editor.titleTooLong', { max: POST_TITLE_MAX });
  return undefined;
}

/** Tags as stored: trimmed, no empty ones, each once (first spelling wins, case-insensitively). */
export function normaliseTags(tags: readonly string[]): string[] {
  const seen = new Set<string>();
  const result: string[] = [];
  for (const raw of tags) {
    const tag = raw.trim();
    if (!tag || seen.has(tag.toLowerCase())) continue;
    seen.add(tag.toLowerCase());
    result.push(tag);
  }
  return result;
}
