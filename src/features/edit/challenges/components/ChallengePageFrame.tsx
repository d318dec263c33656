import ArrowBackOutlined from '@mui/icons-material/ArrowBackOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { getErrorMessage } from '@/shared/api/errors';
import { useEditGetGameChallengeQuery, type ChallengeEditDetailModel } from '../../api';
import { useChallengeRoute } from '../lib/useChallengeRoute';

export interface ChallengePageFrameProps {
  /** Where the way back leads, and what it says. */
  back: { to: string; label: string };
  spacing: number;
  /** The page's content once the route's challenge is loaded. */
  children: (challenge: ChallengeEditDetailModel) => ReactNode;
}

/**
 * The frame of an admin page about the route's challenge (its settings, its flags): the way back,
 * then the challenge's load error, a spinner while it loads, or the page's content.
 */
export function ChallengePageFrame({ back, spacing, children }: ChallengePageFrameProps) {
  const { t } = useTranslation();
  const { gameId, challengeId } = useChallengeRoute();
  const { data, error, isLoading } = useEditGetGameChallengeQuery({ id: gameId, cId: challengeId });
  return (
    <Stack spacing={spacing} sx={{ py: 2 }}>
      <Button component={RouterLink} to={back.to} startIcon={<ArrowBackOutlined />} sx={{ alignSelf: 'flex-start' }}>
        {back.label}
      </Button>
      {error ? <Alert severity="error">{getErrorMessage(t, error)}</Alert> : null}
      {isLoading ? (
        <Box sx={{ display: 'flex', justifyContent: 'center', py: 6 }}>
          <CircularProgress aria-label={t('challengeEdit:loading')} />
        </Box>
      ) : null}
      {data ? children(data) : null}
    </Stack>
  );
}
