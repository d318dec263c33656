import Avatar from '@mui/material/Avatar';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { useTheme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { RecordTable, type RecordColumn } from '@/shared/ui/RecordTable';
import type { ChallengeInfo, ScoreboardItem } from '../api';
import { BloodMark } from './BloodMark';
import { solversOf } from './board';
import { formatDateTime } from '@/shared/lib/dateTime';

type Solve = ScoreboardItem['solvedChallenges'][number];

interface Props {
  team: ScoreboardItem | null;
  challenges: Map<number, ChallengeInfo>;
  onClose: () => void;
}

/**
 * One team's standing: rank, score, its solvers and its solves with times and points. The board
 * carries no member list, so "members" are the team's users who solved something.
 */
export function TeamDialog({ team, challenges, onClose }: Props) {
  const { t, i18n } = useTranslation('scoreboard');
  const titleId = useId();
  const solves = team ? [...team.solvedChallenges].sort((a, b) => a.time - b.time) : [];
  const members = team ? solversOf(team) : [];
  // On a phone the dialog takes the screen and each solve is a card, so no column is cut off.
  const fullScreen = useMediaQuery(useTheme().breakpoints.down('sm'), { noSsr: true });
  const columns: RecordColumn<Solve>[] = [
    {
      key: 'challenge',
      label: t('team.column.challenge'),
      render: (solve) => challenges.get(solve.id)?.title ?? `#${solve.id}`,
    },
    {
      key: 'type',
      label: t('team.column.type'),
      render: (solve) => (
        <Stack component="span" direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
          <BloodMark type={solve.type} label={t(`type.${solve.type}`)} />
          <span>{t(`type.${solve.type}`)}</span>
        </Stack>
      ),
    },
    { key: 'user', label: t('team.column.user'), render: (solve) => solve.userName ?? '—' },
    { key: 'score', label: t('team.column.score'), render: (solve) => solve.score, align: 'right' },
    {
      key: 'time',
      label: t('team.column.time'),
      render: (solve) => formatDateTime(solve.time, i18n.language, 'seconds'),
    },
  ];
  return (
    <Dialog
      open={team !== null}
      onClose={onClose}
      aria-labelledby={titleId}
      maxWidth="md"
      fullWidth
      fullScreen={fullScreen}
    >
      {team ? (
        <>
          <DialogTitle id={titleId}>
            <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
              <Avatar src={team.avatar ?? undefined} alt="">
                {team.name.slice(0, 1).toUpperCase()}
              </Avatar>
              <span>{team.name}</span>
              {team.division ? <Chip size="small" variant="outlined" label={team.division} /> : null}
            </Stack>
          </DialogTitle>
          {/* Focusable: on a phone the solves scroll, and the keyboard must reach them (WCAG 2.1.1). */}
          <DialogContent dividers tabIndex={0} role="region" aria-labelledby={titleId}>
            <Stack spacing={2}>
              {team.bio ? <Typography color="text.secondary">{team.bio}</Typography> : null}
              <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', gap: 1 }}>
                <Chip label={t('team.rank', { rank: team.rank })} color="primary" />
                {team.divisionRank != null ? (
                  <Chip label={t('team.divisionRank', { rank: team.divisionRank })} variant="outlined" />
                ) : null}
                <Chip label={t('team.score', { score: team.score })} variant="outlined" />
                <Chip label={t('team.solved', { value: team.solvedCount })} variant="outlined" />
              </Stack>
              <div>
                <Typography variant="subtitle2" component="h3" gutterBottom>
                  {t('team.members')}
                </Typography>
                {members.length ? (
                  <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
                    {members.map((name) => (
                      <Chip key={name} size="small" label={name} />
                    ))}
                  </Stack>
                ) : (
                  <Typography variant="body2" color="text.secondary">
                    {t('team.noMembers')}
                  </Typography>
                )}
              </div>
              <div>
                <Typography variant="subtitle2" component="h3" gutterBottom>
                  {t('team.solves')}
                </Typography>
                {solves.length ? (
                  <RecordTable
                    label={t('team.solves')}
                    columns={columns}
                    rows={solves}
                    rowKey={(solve) => String(solve.id)}
                    empty={t('team.noSolves')}
                    cardsBelow="sm"
                  />
                ) : (
                  <Typography variant="body2" color="text.secondary">
                    {t('team.noSolves')}
                  </Typography>
                )}
              </div>
            </Stack>
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>{t('team.close')}</Button>
          </DialogActions>
        </>
      ) : null}
    </Dialog>
  );
}
