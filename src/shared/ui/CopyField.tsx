import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import { CopyButton } from './CopyButton';

/** A read-only, selectable value in monospace with a copy button (addresses, entries, URLs). */
export function CopyField({ label, value, copyLabel }: { label: string; value: string; copyLabel: string }) {
  return (
    <TextField
      label={label}
      value={value}
      size="small"
      fullWidth
      slotProps={{
        input: {
          readOnly: true,
          sx: { fontFamily: 'monospace' },
          endAdornment: (
            <InputAdornment position="end">
              <CopyButton text={value} label={copyLabel} />
            </InputAdornment>
          ),
        },
        htmlInput: { spellCheck: false },
      }}
    />
  );
}
