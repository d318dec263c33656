import {
  flagLinesError,
  formFromChallenge,
  parseFlagLines,
  updateModel,
  validateForm,
  type StoredChallenge,
} from '@/features/edit/challenges/lib/challengeForm';

const stored: StoredChallenge = {
  title: 'Baby RSA',
  category: 'Crypto',
  content: 'Find **e**.',
  hints: ['small e'],
  originalScore: 1000,
  minScoreRate: 0.25,
  difficulty: 5,
  disableBloodBonus: false,
  fileName: 'attachment',
  flagTemplate: null,
  containerImage: '',
  cpuCount: 1,
  memoryLimit: 64,
  storageLimit: 256,
  containerExposePort: 80,
  enableTrafficCapture: false,
};

describe('the challenge form', () => {
  it('accepts the stored values as they are', () => {
    expect(validateForm(formFromChallenge(stored), 'DynamicContainer')).toEqual({});
  });

  it('names every field that is out of range', () => {
    const form = {
      ...formFromChallenge(stored),
      title: '  ',
      originalScore: '0',
      minScoreRate: '1.2',
      difficulty: '0',
      memoryLimit: '16',
      containerExposePort: '70000',
      cpuCount: '1.5',
    };
    expect(Object.keys(validateForm(form, 'StaticContainer')).sort()).toEqual(
      ['containerExposePort', 'cpuCount', 'difficulty', 'memoryLimit', 'minScoreRate', 'originalScore', 'title'].sort(),
    );
    // Container limits do not apply to an attachment challenge.
    expect(Object.keys(validateForm(form, 'StaticAttachment')).sort()).toEqual(
      ['difficulty', 'minScoreRate', 'originalScore', 'title'].sort(),
    );
  });

  it('refuses a download name with a slash for dynamic attachments', () => {
    const errors = validateForm({ ...formFromChallenge(stored), fileName: 'a/b.zip' }, 'DynamicAttachment');
    expect(errors.fileName).toEqual({ key: 'challengeEdit:validation.fileNameInvalid', values: { max: 255 } });
  });

  it('sends only the fields of the challenge type, with hints cleaned and numbers parsed', () => {
    const form = { ...formFromChallenge(stored), hints: [' small e ', '', 'Coppersmith'], originalScore: '800' };
    expect(updateModel(form, 'StaticAttachment')).toEqual({
      title: 'Baby RSA',
      category: 'Crypto',
      content: 'Find **e**.',
      hints: ['small e', 'Coppersmith'],
      originalScore: 800,
      minScoreRate: 0.25,
      difficulty: 5,
      disableBloodBonus: false,
    });
    const container = updateModel(
      { ...form, containerImage: ' nginx:1 ', flagTemplate: 'flag{[GUID]}' },
      'DynamicContainer',
    );
    expect(container).toMatchObject({
      containerImage: 'nginx:1',
      cpuCount: 1,
      memoryLimit: 64,
      storageLimit: 256,
      containerExposePort: 80,
      enableTrafficCapture: false,
      flagTemplate: 'flag{[GUID]}',
    });
    expect(container).not.toHaveProperty('fileName');
  });

  it('reads one flag per line, trimmed, each once', () => {
    expect(parseFlagLines(' flag{a} \r\n\nflag{b}\nflag{a}\n')).toEqual(['flag{a}', 'flag{b}']);
    expect(flagLinesError([])).toEqual({ key: 'challengeEdit:validation.flagRequired' });
    expect(flagLinesError(['x'.repeat(128)])).toEqual({
      key: 'challengeEdit:validation.flagTooLong',
      values: { max: 127 },
    });
    expect(flagLinesError(['flag{ok}'])).toBeUndefined();
  });
});
