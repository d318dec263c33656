import ClearIcon from '@mui/icons-material/Clear';
import SearchIcon from '@mui/icons-material/Search';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';

/**
 * The search box of a list. It only holds the text; the list filters on the debounced value
 * (`usePagedList().settledSearch` or `useDebouncedValue`).
 */
export function SearchField({
  value,
  onChange,
  label,
  clearLabel,
}: {
  value: string;
  onChange: (text: string) => void;
  label: string;
  /** With it, a button of that name empties the box while it holds text. */
  clearLabel?: string;
}) {
  return (
    <TextField
      size="small"
      type="search"
      label={label}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      slotProps={{
        htmlInput: { maxLength: 64 },
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <SearchIcon fontSize="small" />
            </InputAdornment>
          ),
          endAdornment:
            clearLabel && value ? (
              <InputAdornment position="end">
                <IconButton size="small" edge="end" aria-label={clearLabel} onClick={() => onChange('')}>
                  <ClearIcon fontSize="small" />
                </IconButton>
              </InputAdornment>
            ) : undefined,
        },
      }}
    />
  );
}
