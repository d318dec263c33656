import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { GameDetailModel } from '../api';
import { CopyButton } from '@/shared/ui/CopyButton';

/** A labelled figure of the rank card. */
function Figure({ label, value }: { label: string; value: string | number }) {
  return (
    <Stack sx={{ minWidth: 0 }}>
      <Typography variant="caption" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="h6" component="p" sx={{ fontWeight: 700 }}>
        {value}
      </Typography>
    </Stack>
  );
}

/**
 * The team's own row of the board (rank 0: not ranked yet), its solved share, and the team token
 * challenge services can verify (reference §5.2).
 */
export function TeamRankCard({ details, teamName }: { details: GameDetailModel; teamName: string }) {
  const { t } = useTranslation();
  const headingId = useId();
  const rank = details.rank;
  const solved = rank?.solvedCount ?? 0;
  const total = details.challengeCount;
  return (
    <Paper component="section" aria-labelledby={headingId} variant="outlined" sx={{ p: 2 }}>
      <Stack spacing={1.5}>
        <div>
          <Typography id={headingId} variant="h6" component="h2" noWrap>
            {rank?.name || teamName}
          </Typography>
          {rank?.division && (
            <Typography variant="body2" color="text.secondary">
              {rank.division}
            </Typography>
          )}
        </div>
        <Stack direction="row" spacing={2} sx={{ justifyContent: 'space-between' }}>
          <Figure label={t('game:rank.rank')} value={rank?.rank ? `#${rank.rank}` : t('game:rank.unranked')} />
          {rank?.divisionRank ? <Figure label={t('game:rank.divisionRank')} value={`#${rank.divisionRank}`} /> : null}
          <Figure label={t('game:rank.score')} value={rank?.score ?? 0} />
        </Stack>
        <Stack spacing={0.5}>
          <Typography variant="body2">{t('game:rank.solved', { solved, total })}</Typography>
          <LinearProgress
            variant="determinate"
            value={total > 0 ? (solved / total) * 100 : 0}
            aria-label={t('game:rank.solved', { solved, total })}
          />
        </Stack>
        <Stack spacing={0.5}>
          <Typography variant="caption" color="text.secondary">
            {t('game:rank.token')}
          </Typography>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <Typography
              variant="body2"
              sx={{ fontFamily: 'monospace', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
              title={details.teamToken}
            >
              {details.teamToken}
            </Typography>
            <CopyButton text={details.teamToken} label={t('game:rank.copyToken')} />
          </Stack>
        </Stack>
      </Stack>
    </Paper>
  );
}
