/**
 * What a new challenge holds besides its title, category and type (GZCTF 1.4.0's entity defaults):
 * the server's edit tests expect exactly these, and the client's editor fixtures start from them so
 * that the pages are tested on what the server really sends.
 */
export const NEW_CHALLENGE_DEFAULTS = {
  content: '',
  hints: [] as string[],
  flagTemplate: null,
  isEnabled: false,
  acceptedCount: 0,
  fileName: 'attachment',
  attachment: null,
  testContainer: null,
  flags: [] as never[],
  containerImage: '',
  memoryLimit: 64,
  cpuCount: 1,
  storageLimit: 256,
  containerExposePort: 80,
  enableTrafficCapture: false,
  disableBloodBonus: false,
  originalScore: 1000,
  minScoreRate: 0.25,
  difficulty: 5,
};
