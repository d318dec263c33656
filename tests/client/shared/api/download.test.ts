import { dispositionFileName } from '@/shared/api/download';
import { pageParams, toPage } from '@/shared/api/paging';

describe('dispositionFileName', () => {
  it('prefers the RFC 5987 name, then the plain one', () => {
    expect(
      dispositionFileName(`attachment; filename="a.xlsx"; filename*=UTF-8''%E6%AF%94%E8%B5%9B_Submissions.xlsx`),
    ).toBe('比赛_Submissions.xlsx');
    expect(dispositionFileName('attachment; filename="Game-Scoreboard-1.xlsx"')).toBe('Game-Scoreboard-1.xlsx');
    expect(dispositionFileName('attachment; filename=plain.xlsx')).toBe('plain.xlsx');
    expect(dispositionFileName(null)).toBeUndefined();
  });
});

describe('paged responses', () => {
  const meta = (total: string | null) => ({
    response: new Response(null, { headers: total === null ? {} : { 'X-Total-Count': total } }),
  });

  it('reads the total from X-Total-Count, else counts the items', () => {
    expect(toPage([1, 2], meta('120'))).toEqual({ items: [1, 2], total: 120 });
    expect(toPage([1, 2], meta(null))).toEqual({ items: [1, 2], total: 2 });
    expect(toPage([1], meta('oops'))).toEqual({ items: [1], total: 1 });
  });

  it('leaves empty filters out of the query', () => {
    expect(pageParams({ count: 50, skip: 0, search: '', status: undefined, division: null })).toEqual({
      count: 50,
      skip: 0,
    });
  });
});
