import { act, renderHook } from '@testing-library/react';
import { SEARCH_DEBOUNCE_MS, useDebouncedValue } from '@/shared/lib/useDebouncedValue';

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

describe('useDebouncedValue', () => {
  it('settles once typing pauses, not on every keystroke', () => {
    const seen: string[] = [];
    const { result, rerender } = renderHook(
      ({ text }) => {
        const settled = useDebouncedValue(text);
        if (seen.at(-1) !== settled) seen.push(settled);
        return settled;
      },
      { initialProps: { text: '' } },
    );
    for (const text of ['a', 'al', 'alp', 'alph', 'alpha']) {
      rerender({ text });
      act(() => jest.advanceTimersByTime(SEARCH_DEBOUNCE_MS - 50));
    }
    expect(result.current).toBe('');
    act(() => jest.advanceTimersByTime(50));
    expect(result.current).toBe('alpha');
    expect(seen).toEqual(['', 'alpha']);
  });

  it('keeps the settled value when the text comes back to it before the pause ends', () => {
    const { result, rerender } = renderHook(({ text }) => useDebouncedValue(text, 100), {
      initialProps: { text: 'x' },
    });
    rerender({ text: 'xy' });
    act(() => jest.advanceTimersByTime(60));
    rerender({ text: 'x' });
    act(() => jest.advanceTimersByTime(200));
    expect(result.current).toBe('x');
  });
});
