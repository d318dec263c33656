import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import type { ReactElement } from 'react';

/**
 * One-choice filter of a monitor list: "all" (null) and one chip per value, the chosen one filled
 * and pressed. Choosing sends the list back to its first page (usePagedList's filters).
 */
export function FilterChips<Value extends string>({
  label,
  allLabel,
  values,
  chosen,
  onChoose,
  labelOf,
  iconOf,
}: {
  label: string;
  allLabel: string;
  values: readonly Value[];
  chosen: Value | null;
  onChoose: (value: Value | null) => void;
  labelOf: (value: Value) => string;
  iconOf?: (value: Value) => ReactElement;
}) {
  const chip = (value: Value | null, text: string, icon?: ReactElement) => (
    <Chip
      key={value ?? ''}
      icon={icon}
      label={text}
      color={chosen === value ? 'primary' : 'default'}
      variant={chosen === value ? 'filled' : 'outlined'}
      aria-pressed={chosen === value}
      onClick={() => onChoose(value)}
    />
  );
  return (
    <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }} role="group" aria-label={label}>
      {chip(null, allLabel)}
      {values.map((value) => chip(value, labelOf(value), iconOf?.(value)))}
    </Stack>
  );
}
