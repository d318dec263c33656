import DarkModeOutlined from '@mui/icons-material/DarkModeOutlined';
import LightModeOutlined from '@mui/icons-material/LightModeOutlined';
import IconButton from '@mui/material/IconButton';
import { useTranslation } from 'react-i18next';
import { colorSchemeChosen, selectColorScheme } from '@/shared/preferences/slice';
import { useAppDispatch, useAppSelector } from '../hooks';

/** Dark (the default) or light; the choice is persisted with the other preferences. */
export function ColorSchemeToggle() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const scheme = useAppSelector(selectColorScheme);
  const next = scheme === 'dark' ? 'light' : 'dark';
  const label = t(next === 'light' ? 'common:colorScheme.toLight' : 'common:colorScheme.toDark');
  return (
    <IconButton aria-label={label} onClick={() => dispatch(colorSchemeChosen(next))}>
      {scheme === 'dark' ? <LightModeOutlined /> : <DarkModeOutlined />}
    </IconButton>
  );
}
