import { isStrongPassword, parseBatchUsers, splitFields } from '@/features/admin/lib/batchUsers';

describe('batch user lines', () => {
  it('splits at commas and tabs, keeping quoted separators', () => {
    expect(splitFields('a, b ,c')).toEqual(['a', 'b', 'c']);
    expect(splitFields('a\tb\tc')).toEqual(['a', 'b', 'c']);
    expect(splitFields('a,"x, ""y""",c')).toEqual(['a', 'x, "y"', 'c']);
  });

  it('reads users with optional team, real name, student number and phone; skips blanks and a header', () => {
    const { users, errors } = parseBatchUsers(
      'userName,email,password,teamName\n\nalice,alice@example.com,Passw0rd,Red,Alice A,S1,123\nbob,bob@example.com,Passw0rd\n',
    );
    expect(errors).toEqual([]);
    expect(users).toEqual([
      {
        userName: 'alice',
        email: 'alice@example.com',
        password: 'Passw0rd',
        teamName: 'Red',
        realName: 'Alice A',
        stdNumber: 'S1',
        phone: '123',
      },
      {
        userName: 'bob',
        email: 'bob@example.com',
        password: 'Passw0rd',
        teamName: null,
        realName: null,
        stdNumber: null,
        phone: null,
      },
    ]);
  });

  it('reports every problem by line and keeps no user with a problem', () => {
    const { users, errors } = parseBatchUsers(
      [
        'ab,ab@example.com,Passw0rd',
        'carol,carol@,Passw0rd',
        'dave,dave@example.com,password',
        'erin,erin@example.com,Passw0rd,A team name too long',
        'only,two',
        'Erin,other@example.com,Passw0rd',
        'frank,ERIN@example.com,Passw0rd',
      ].join('\n'),
    );
    expect(errors).toEqual([
      { line: 1, problem: 'userNameLength' },
      { line: 2, problem: 'email' },
      { line: 3, problem: 'password' },
      { line: 4, problem: 'teamNameLength' },
      { line: 5, problem: 'fields' },
      { line: 6, problem: 'duplicateUserName' },
      { line: 7, problem: 'duplicateEmail' },
    ]);
    expect(users).toEqual([]);
  });

  it('applies the server password rules', () => {
    expect(isStrongPassword('Passw0rd')).toBe(true);
    expect(isStrongPassword('Pa0rd')).toBe(false);
    expect(isStrongPassword('password0')).toBe(false);
    expect(isStrongPassword('PASSWORD0')).toBe(false);
    expect(isStrongPassword('Password')).toBe(false);
  });
});
