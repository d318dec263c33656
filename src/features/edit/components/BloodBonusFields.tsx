import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

export type BloodField = 'bloodFirst' | 'bloodSecond' | 'bloodThird';
const FIELDS: Array<{ field: BloodField; label: 'first' | 'second' | 'third' }> = [
  { field: 'bloodFirst', label: 'first' },
  { field: 'bloodSecond', label: 'second' },
  { field: 'bloodThird', label: 'third' },
];

/** Shown beside a valid value: the score factor it gives (1 + value/1000). */
function factor(text: string): string | null {
  if (!/^\d+$/.test(text.trim())) return null;
  const value = Number(text);
  return value <= 1000 ? `×${(1 + value / 1000).toFixed(3).replace(/0+$/, '').replace(/\.$/, '')}` : null;
}

/**
 * The blood bonus as three per-mille fields (first, second and third solve). They are packed into one
 * integer when the form is saved (`encodeBloodBonus`).
 */
export function BloodBonusFields({
  values,
  errors,
  onChange,
}: {
  values: Record<BloodField, string>;
  errors: Partial<Record<BloodField, string>>;
  onChange: (field: BloodField, value: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <Stack spacing={1}>
      <Typography variant="subtitle2" component="h4">
        {t('edit:info.bloodBonus.title')}
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        {FIELDS.map(({ field, label }) => (
          <TextField
            key={field}
            fullWidth
            label={t(`edit:info.bloodBonus.${label}`)}
            value={values[field]}
            onChange={(event) => onChange(field, event.target.value)}
            error={!!errors[field]}
            helperText={errors[field] ? t(`edit:${errors[field]}`) : (factor(values[field]) ?? ' ')}
            slotProps={{
              htmlInput: { inputMode: 'numeric' },
              input: { endAdornment: <InputAdornment position="end">‰</InputAdornment> },
            }}
          />
        ))}
      </Stack>
    </Stack>
  );
}
