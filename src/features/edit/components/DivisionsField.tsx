import Autocomplete from '@mui/material/Autocomplete';
import Chip from '@mui/material/Chip';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { addDivisions } from '../lib/gameForm';

const NO_OPTIONS: string[] = [];

/**
 * The game's divisions as chips: type one and press Enter (or a comma) to add it, Backspace or a
 * chip's delete icon to remove one. Repeats and blanks are dropped as the server would refuse them.
 */
export function DivisionsField({ value, onChange }: { value: string[]; onChange: (value: string[]) => void }) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState('');
  return (
    <Autocomplete<string, true, false, true>
      multiple
      freeSolo
      autoSelect
      options={NO_OPTIONS}
      value={value}
      inputValue={typed}
      onInputChange={(_event, next, reason) => {
        if (reason === 'input' && next.includes(',')) {
          onChange(addDivisions(value, next));
          setTyped('');
        } else {
          setTyped(next);
        }
      }}
      onChange={(_event, next) => {
        onChange(addDivisions([], next.join('\n')));
        setTyped('');
      }}
      renderValue={(items, getItemProps) =>
        items.map((item, index) => {
          const { key, ...props } = getItemProps({ index });
          return <Chip key={key} size="small" label={item} {...props} />;
        })
      }
      renderInput={(params) => (
        <TextField
          {...params}
          label={t('edit:info.field.divisions')}
          helperText={t('edit:info.help.divisions')}
          placeholder={value.length === 0 ? t('edit:info.placeholder.divisions') : undefined}
        />
      )}
    />
  );
}
