/** Result of a server-side operation (`TaskStatus` on the wire). */
export type OperationResult = 'Success' | 'Failed' | 'Pending' | 'Denied' | 'Exit' | 'NotFound' | 'Duplicate';

export type OperationColor = 'green' | 'red' | 'yellow' | 'alert' | 'gray' | 'violet' | 'lime';

const COLORS: Record<OperationResult, OperationColor> = {
  Success: 'green',
  Failed: 'red',
  Pending: 'yellow',
  Denied: 'alert',
  Exit: 'gray',
  NotFound: 'violet',
  Duplicate: 'lime',
};

/** Spec §3: the colour each result is shown in; no (or an unknown) result is gray. */
export function operationResultColor(result: string | null | undefined): OperationColor {
  return result && Object.hasOwn(COLORS, result) ? COLORS[result as OperationResult] : 'gray';
}

/** CSS values for the colour names, readable on both the dark and the light scheme. */
export const OPERATION_COLOR_VALUES: Record<OperationColor, string> = {
  green: '#40c057',
  red: '#fa5252',
  yellow: '#fab005',
  alert: '#ff7a45',
  gray: '#868e96',
  violet: '#7950f2',
  lime: '#82c91e',
};
