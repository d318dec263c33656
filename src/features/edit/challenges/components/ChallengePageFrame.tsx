import ArrowBackOutlined from '@mui/icons-material/ArrowBackOutlined';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { useEditGetGameChallengeQuery, type ChallengeEditDetailModel } from '../../api';
import { PageNotFound } from '../../components/PageNotFound';
import { useAnsweredSinceMount } from '../../lib/useStoredForm';
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
 * then the challenge's load error, a spinner while it loads, or the page's content. The content waits
 * for an answer fetched after the page opened: the editor saves every field, and a cached copy from
 * an earlier visit would save away changes made since. Once shown, it stays through failed reloads,
 * whose error shows above it.
 */
export function ChallengePageFrame(props: ChallengePageFrameProps) {
  const { gameId, challengeId } = useChallengeRoute();
  if (Number.isNaN(gameId) || Number.isNaN(challengeId)) return <PageNotFound />;
  // Keyed by the challenge, so opening another one waits for its fresh answer too.
  return <LoadedFrame key={`${gameId}/${challengeId}`} gameId={gameId} challengeId={challengeId} {...props} />;
}

function LoadedFrame({
  gameId,
  challengeId,
  back,
  spacing,
  children,
}: ChallengePageFrameProps & { gameId: number; challengeId: number }) {
  const { data, error, fulfilledTimeStamp } = useEditGetGameChallengeQuery(
    { id: gameId, cId: challengeId },
    { refetchOnMountOrArgChange: true },
  );
  const fresh = useAnsweredSinceMount(fulfilledTimeStamp);
  const shown = fresh ? data : undefined;
  return (
    <Stack spacing={spacing} sx={{ py: 2 }}>
      <Button component={RouterLink} to={back.to} startIcon={<ArrowBackOutlined />} sx={{ alignSelf: 'flex-start' }}>
        {back.label}
      </Button>
      <ChallengeLoadState error={error} isLoading={!shown && !error} />
      {shown ? children(shown) : null}
    </Stack>
  );
}
