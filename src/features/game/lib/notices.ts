import type { GameNotice, NoticeType } from '../api';

const NOTICE_TYPES: readonly NoticeType[] = [
  'Normal',
  'FirstBlood',
  'SecondBlood',
  'ThirdBlood',
  'NewHint',
  'NewChallenge',
];

/** The three blood notices, which the panel highlights and announces. */
export const isBloodNotice = (type: NoticeType) =>
  type === 'FirstBlood' || type === 'SecondBlood' || type === 'ThirdBlood';

/**
 * A notice pushed on `/hub/user`. The hub sends `time` as an ISO string where REST sends Unix ms
 * (reference §6); the cache only ever holds Unix ms. Anything that is not a notice is dropped.
 */
export function noticeFromHub(payload: unknown): GameNotice | null {
  if (typeof payload !== 'object' || payload === null) return null;
  const raw = payload as Record<string, unknown>;
  if (typeof raw.id !== 'number' || !NOTICE_TYPES.includes(raw.type as NoticeType)) return null;
  const parsed = typeof raw.time === 'string' ? Date.parse(raw.time) : raw.time;
  return {
    id: raw.id,
    type: raw.type as NoticeType,
    values: Array.isArray(raw.values) ? raw.values.map(String) : [],
    time: typeof parsed === 'number' && Number.isFinite(parsed) ? parsed : Date.now(),
  };
}

/** Adds (or replaces, by id) a notice in a cached list; a polled refresh may already hold it. */
export function addNotice(list: GameNotice[], notice: GameNotice): void {
  const index = list.findIndex((item) => item.id === notice.id);
  if (index >= 0) list[index] = notice;
  else list.unshift(notice);
}

/** Newest first; the cache keeps the server's order (admin notices first), the panel reads by time. */
export const byNewest = (notices: readonly GameNotice[]) => [...notices].sort((a, b) => b.time - a.time);

/**
 * What a notice says, as an i18n key of the `game` namespace with its values (reference §3.6):
 * Normal → [content]; bloods → [team, challenge]; NewHint / NewChallenge → [challenge].
 */
/**
 * An announcement's markdown as plain text, for a notification, which shows text as it is: links
 * become their text, emphasis, code and heading marks go. The notice panel renders the markdown itself.
 */
export function plainAnnouncement(markdown: string): string {
  return (
    markdown
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/^\s{0,3}(#{1,6}|>|[-*+])\s+/gm, '')
      // Only marks that stand apart from words: `flag{a_b_c}` and snake_case keep their underscores.
      .replace(/(?<!\w)(\*\*|__|\*|_|~~|`)(?=\S)([^]*?\S)\1(?!\w)/g, '$2')
      .trim()
  );
}

export function noticeText(notice: GameNotice): { key: string; values: Record<string, string> } {
  const [first = '', second = ''] = notice.values;
  switch (notice.type) {
    case 'FirstBlood':
    case 'SecondBlood':
    case 'ThirdBlood':
      return { key: `game:notice.${notice.type}`, values: { team: first, challenge: second } };
    case 'NewHint':
    case 'NewChallenge':
      return { key: `game:notice.${notice.type}`, values: { challenge: first } };
    default:
      return { key: 'game:notice.Normal', values: { content: first } };
  }
}
