import ArrowBackOutlined from '@mui/icons-material/ArrowBackOutlined';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { useEditGetGameChallengeQuery, type ChallengeEditDetailModel } from '../../api';
import { useChallengeRoute } from '../lib/useChallengeRoute';
import { ChallengeLoadState } from './ChallengeLoadState';

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
  const { gameId, challengeId } = useChallengeRoute();
  const { data, error, isLoading } = useEditGetGameChallengeQuery({ id: gameId, cId: challengeId });
  return (
    <Stack spacing={spacing} sx={{ py: 2 }}>
      <Button component={RouterLink} to={back.to} startIcon={<ArrowBackOutlined />} sx={{ alignSelf: 'flex-start' }}>
        {back.label}
      </Button>
      <ChallengeLoadState error={error} isLoading={isLoading} />
      {data ? children(data) : null}
    </Stack>
  );
}
