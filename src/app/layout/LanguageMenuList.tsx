import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useTranslation } from 'react-i18next';
import { LANGUAGE_NAMES, LANGUAGES, isMachineTranslated, type Language } from '@/shared/i18n/languages';

interface Props {
  id: string;
  labelledBy: string;
  anchor: HTMLElement | null;
  current: Language;
  onChoose: (language: Language) => void;
  onClose: () => void;
}

/** The list of languages, each named in itself; machine-translated ones say so. */
export default function LanguageMenuList({ id, labelledBy, anchor, current, onChoose, onClose }: Props) {
  const { t } = useTranslation();
  return (
    <Menu
      id={id}
      anchorEl={anchor}
      open={Boolean(anchor)}
      onClose={onClose}
      slotProps={{ list: { 'aria-labelledby': labelledBy } }}
    >
      {LANGUAGES.map((language) => (
        <MenuItem key={language} lang={language} selected={language === current} onClick={() => onChoose(language)}>
          <ListItemText
            primary={LANGUAGE_NAMES[language]}
            secondary={isMachineTranslated(language) ? t('common:language.machineTranslated') : undefined}
          />
        </MenuItem>
      ))}
    </Menu>
  );
}
