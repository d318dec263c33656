import TranslateIcon from '@mui/icons-material/Translate';
import IconButton from '@mui/material/IconButton';
import { lazy, Suspense, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_LANGUAGE, isMachineTranslated, type Language } from '@/shared/i18n/languages';
import { languageChosen, selectLanguage } from '@/shared/preferences/slice';
import { useConfirm } from '@/shared/ui/ConfirmProvider';
import { useAppDispatch, useAppSelector } from '../hooks';

// The menu loads with the first click; the button is all the first page load needs.
const LanguageMenuList = lazy(() => import(/* webpackChunkName: "language-menu" */ './LanguageMenuList'));

/** A text of the confirmation, rendered in whatever language is current when it shows. */
function Text({ k }: { k: string }) {
  const { t } = useTranslation();
  return <>{t(k)}</>;
}

/**
 * The language switcher (spec §2). Choosing a machine-translated language switches to it and asks
 * whether to keep it, in that language; cancelling goes back to English.
 */
export function LanguageMenu() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const current = useAppSelector(selectLanguage);
  const confirm = useConfirm();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [opened, setOpened] = useState(false);
  const buttonId = useId();
  const menuId = useId();

  async function choose(language: Language) {
    setAnchor(null);
    if (language === current) return;
    dispatch(languageChosen(language));
    if (!isMachineTranslated(language)) return;
    const keep = await confirm({
      title: <Text k="common:language.confirm.title" />,
      message: <Text k="common:language.confirm.message" />,
      confirmLabel: <Text k="common:language.confirm.keep" />,
      cancelLabel: <Text k="common:language.confirm.cancel" />,
    });
    if (!keep) dispatch(languageChosen(DEFAULT_LANGUAGE));
  }

  return (
    <>
      <IconButton
        id={buttonId}
        aria-label={t('common:language.label')}
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={Boolean(anchor)}
        onClick={(event) => {
          setOpened(true);
          setAnchor(event.currentTarget);
        }}
      >
        <TranslateIcon />
      </IconButton>
      {opened && (
        <Suspense fallback={null}>
          <LanguageMenuList
            id={menuId}
            labelledBy={buttonId}
            anchor={anchor}
            current={current}
            onChoose={(language) => void choose(language)}
            onClose={() => setAnchor(null)}
          />
        </Suspense>
      )}
    </>
  );
}
