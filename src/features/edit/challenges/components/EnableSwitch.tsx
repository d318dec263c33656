import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { getErrorMessage } from '@/shared/api/errors';
import { useEditUpdateGameChallengeMutation } from '../../api';

interface Props {
  gameId: number;
  challengeId: number;
  title: string;
  isEnabled: boolean;
  /** Show the "Enabled" text next to the switch (the list names it only for screen readers). */
  showLabel?: boolean;
}

/**
 * Turns a challenge on or off with an update that carries only `isEnabled`. The switch shows what the
 * server stored: a refused change (enabling without a flag) leaves it where it was and says why under
 * it, besides the error notification.
 */
export function EnableSwitch({ gameId, challengeId, title, isEnabled, showLabel = false }: Props) {
  const { t } = useTranslation();
  const errorId = useId();
  const [update, { isLoading, error, reset }] = useEditUpdateGameChallengeMutation();

  const toggle = (next: boolean) => {
    reset();
    void update({ id: gameId, cId: challengeId, challengeUpdateModel: { isEnabled: next } });
  };

  const label = t('challengeEdit:enable.label', { title });
  const control = (
    <Switch
      checked={isEnabled}
      disabled={isLoading}
      onChange={(event) => toggle(event.target.checked)}
      slotProps={{
        input: {
          role: 'switch',
          'aria-label': label,
          ...(error ? { 'aria-describedby': errorId } : {}),
        },
      }}
    />
  );
  return (
    <Stack sx={{ alignItems: showLabel ? 'flex-start' : 'flex-end' }}>
      {showLabel ? (
        <FormControlLabel
          control={control}
          label={t(isEnabled ? 'challengeEdit:enable.on' : 'challengeEdit:enable.off')}
        />
      ) : (
        control
      )}
      {error ? (
        <Typography id={errorId} role="alert" variant="caption" color="error" sx={{ maxWidth: 260 }}>
          {getErrorMessage(t, error)}
        </Typography>
      ) : null}
    </Stack>
  );
}
