/** Client namespaces, one per feature plus `common`; `server.json` holds the server's own texts. */
export const NAMESPACES = [
  'common',
  'account',
  'admin',
  'edit',
  'challengeEdit',
  'game',
  'scoreboard',
  'monitor',
  'team',
  'posts',
  'wsrx',
] as const;
