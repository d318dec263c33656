import PaletteOutlined from '@mui/icons-material/PaletteOutlined';
import IconButton from '@mui/material/IconButton';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';

// Form controls only this dialog uses stay out of the first load.
const AppearanceDialog = lazy(() => import(/* webpackChunkName: "appearance" */ './AppearanceDialog'));

/** Opens the appearance settings: theme provider and custom colour. */
export function AppearanceButton() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [loaded, setLoaded] = useState(false);
  return (
    <>
      <IconButton
        aria-label={t('common:appearance.open')}
        aria-haspopup="dialog"
        onClick={() => {
          setLoaded(true);
          setOpen(true);
        }}
      >
        <PaletteOutlined />
      </IconButton>
      {loaded && (
        <Suspense fallback={null}>
          <AppearanceDialog open={open} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
