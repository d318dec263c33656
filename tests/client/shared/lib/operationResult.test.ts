import { OPERATION_COLOR_VALUES, operationResultColor } from '@/shared/lib/operationResult';

describe('operation result colours (spec §3)', () => {
  it.each([
    ['Success', 'green'],
    ['Failed', 'red'],
    ['Pending', 'yellow'],
    ['Denied', 'alert'],
    ['Exit', 'gray'],
    ['NotFound', 'violet'],
    ['Duplicate', 'lime'],
  ])('%s is %s', (result, color) => {
    expect(operationResultColor(result)).toBe(color);
  });

  it('is gray without a result', () => {
    expect(operationResultColor(undefined)).toBe('gray');
    expect(operationResultColor(null)).toBe('gray');
    expect(operationResultColor('Whatever')).toBe('gray');
    expect(operationResultColor('toString')).toBe('gray');
  });

  it('has a CSS colour for every name', () => {
    for (const value of Object.values(OPERATION_COLOR_VALUES)) expect(value).toMatch(/^#[0-9a-f]{6}$/);
  });
});
