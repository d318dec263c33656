import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import GlobalStyles from '@mui/material/GlobalStyles';
import { SnackbarContent, SnackbarProvider, useSnackbar, type CustomContentProps } from 'notistack';
import { forwardRef, useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { translateText } from '../text/textRef';
import type { AppNotification } from './slice';

/** Spec §9: 5 visible at once, bottom-right, closing after 4 s, 440 px wide, above everything (layer 5000). */
export const NOTIFICATION_LAYOUT = {
  maxVisible: 5,
  autoHideMs: 4000,
  width: 440,
  zIndex: 5000,
  anchorOrigin: { vertical: 'bottom', horizontal: 'right' },
} as const;

const CONTAINER_CLASS = 'ctf-notifications';

const NotificationCard = forwardRef<HTMLDivElement, CustomContentProps>(function NotificationCard(
  { id, message, variant },
  ref,
) {
  const { closeSnackbar } = useSnackbar();
  const { t } = useTranslation();
  const severity = variant === 'default' ? 'info' : variant;
  return (
    <SnackbarContent ref={ref} style={{ width: NOTIFICATION_LAYOUT.width, maxWidth: 'calc(100vw - 32px)' }}>
      <Alert
        severity={severity}
        variant="filled"
        elevation={6}
        closeText={t('common:notification.close')}
        onClose={() => closeSnackbar(id)}
        sx={{ width: '100%', wordBreak: 'break-word' }}
      >
        {message}
      </Alert>
    </SnackbarContent>
  );
});

const CARDS = {
  default: NotificationCard,
  error: NotificationCard,
  warning: NotificationCard,
  success: NotificationCard,
  info: NotificationCard,
};

/** notistack configured as the spec says, with our Alert-based card for every variant. */
export function NotificationProvider({ children }: { children?: ReactNode }) {
  return (
    <>
      {/* Doubled class: beats notistack's own container class, whatever order the styles load in. */}
      <GlobalStyles styles={{ [`.${CONTAINER_CLASS}.${CONTAINER_CLASS}`]: { zIndex: NOTIFICATION_LAYOUT.zIndex } }} />
      <SnackbarProvider
        maxSnack={NOTIFICATION_LAYOUT.maxVisible}
        autoHideDuration={NOTIFICATION_LAYOUT.autoHideMs}
        anchorOrigin={NOTIFICATION_LAYOUT.anchorOrigin}
        classes={{ containerRoot: CONTAINER_CLASS }}
        Components={CARDS}
      >
        {children}
      </SnackbarProvider>
    </>
  );
}

/**
 * Shows queued notifications (from the notifications slice) through notistack, then reports each as
 * shown. Rendered once, inside NotificationProvider, by the app that owns the store.
 */
export function NotificationHost({
  notifications,
  onShown,
}: {
  notifications: readonly AppNotification[];
  onShown: (id: string) => void;
}) {
  const { enqueueSnackbar } = useSnackbar();
  const { t } = useTranslation();
  useEffect(() => {
    for (const notification of notifications) {
      enqueueSnackbar({
        key: notification.id,
        preventDuplicate: true,
        variant: notification.variant,
        message: (
          <>
            <AlertTitle>{translateText(t, notification.title)}</AlertTitle>
            {translateText(t, notification.message)}
          </>
        ),
      });
      onShown(notification.id);
    }
  }, [notifications, enqueueSnackbar, onShown, t]);
  return null;
}

export interface NotificationCenterProps {
  notifications: readonly AppNotification[];
  onShown: (id: string) => void;
}

/**
 * Provider and host together: what the app mounts, lazily, when the first notification is queued.
 * Components never raise notifications themselves, so nothing else needs notistack's context.
 */
export default function NotificationCenter(props: NotificationCenterProps) {
  return (
    <NotificationProvider>
      <NotificationHost {...props} />
    </NotificationProvider>
  );
}
