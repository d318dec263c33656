import { formatDateTime } from '@/shared/lib/dateTime';

// 3 June 2025, 14:05:09 in the test's time zone (the formatter writes local time).
const TIME = new Date(2025, 5, 3, 14, 5, 9).getTime();

describe('formatDateTime', () => {
  it('writes digits by default, with seconds for logs and boards', () => {
    expect(formatDateTime(TIME, 'en-US')).toBe('06/03/2025, 02:05 PM');
    expect(formatDateTime(TIME, 'en-US', 'seconds')).toBe('06/03/2025, 02:05:09 PM');
    expect(formatDateTime(TIME, 'zh-CN', 'seconds')).toBe('2025/06/03 14:05:09');
  });

  it('words the date in the medium style and leaves the year out of chart ticks', () => {
    expect(formatDateTime(TIME, 'en-GB', 'medium')).toBe('3 Jun 2025, 14:05');
    expect(formatDateTime(TIME, 'en-GB', 'tick')).toBe('03/06, 14:05');
  });

  it("says '—' for an unknown time and for the server's \"never\" before 1970", () => {
    expect(formatDateTime(null, 'en-US')).toBe('—');
    expect(formatDateTime(undefined, 'en-US', 'medium')).toBe('—');
    expect(formatDateTime(Number.NaN, 'en-US')).toBe('—');
    expect(formatDateTime(-62_135_596_800_000, 'en-US', 'seconds')).toBe('—');
  });

  it('falls back to the ISO form for a language the browser cannot format', () => {
    expect(formatDateTime(TIME, 'not a language!', 'medium')).toBe(new Date(TIME).toISOString());
  });
});
