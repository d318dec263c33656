import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { CHALLENGE_CATEGORIES, type ChallengeCategoryName } from '@/shared/lib/challengeCategory';
import { CategoryBadge } from './CategoryBadge';

type Props = Omit<TextFieldProps, 'select' | 'value' | 'onChange' | 'children'> & {
  value: ChallengeCategoryName;
  onChange: (category: ChallengeCategoryName) => void;
};

/** A category picker showing each category's icon, colour and what it covers. */
export function CategorySelect({ value, onChange, ...props }: Props) {
  const { t } = useTranslation();
  return (
    <TextField
      select
      label={t('challengeEdit:form.category')}
      value={value}
      onChange={(event) => onChange(event.target.value as ChallengeCategoryName)}
      slotProps={{
        select: {
          renderValue: (selected) => (
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <CategoryBadge category={String(selected)} size={24} />
              <span>{t(`common:category.${String(selected)}`)}</span>
            </Stack>
          ),
        },
      }}
      {...props}
    >
      {CHALLENGE_CATEGORIES.map((category) => (
        <MenuItem key={category} value={category}>
          <ListItemIcon sx={{ mr: 1.5 }}>
            <CategoryBadge category={category} size={28} />
          </ListItemIcon>
          <ListItemText
            primary={t(`common:category.${category}`)}
            secondary={t(`challengeEdit:category.${category}.description`)}
          />
        </MenuItem>
      ))}
    </TextField>
  );
}
