import FormControlLabel from '@mui/material/FormControlLabel';
import Grid from '@mui/material/Grid';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CHALLENGE_CATEGORIES } from '@/shared/lib/challengeCategory';
import type { ChallengeInfo, GameDetailModel } from '../api';
import { ChallengeCard } from './ChallengeCard';
import { ChallengeDialog } from './ChallengeDialog';

const ALL = 'All';

/** Categories in the contract's order (the server's), unknown ones last. */
const categoryOrder = (category: string) => {
  const index = (CHALLENGE_CATEGORIES as readonly string[]).indexOf(category);
  return index < 0 ? CHALLENGE_CATEGORIES.length : index;
};

/**
 * The challenges by category tab (with "All"), a "hide solved" switch, and the challenge dialog
 * (read-only in an admin's `preview`).
 */
export function ChallengeBoard({
  gameId,
  details,
  preview = false,
}: {
  gameId: number;
  details: Pick<GameDetailModel, 'challenges' | 'rank'>;
  preview?: boolean;
}) {
  const { t } = useTranslation();
  const [tab, setTab] = useState<string>(ALL);
  const [hideSolved, setHideSolved] = useState(false);
  const [openId, setOpenId] = useState<number | null>(null);

  const categories = useMemo(
    () =>
      Object.entries(details.challenges)
        .filter(([, list]) => list.length > 0)
        .sort(([a], [b]) => categoryOrder(a) - categoryOrder(b)),
    [details.challenges],
  );
  const solvedIds = useMemo(
    () => new Set((details.rank?.solvedChallenges ?? []).map((item) => item.id)),
    [details.rank],
  );
  const all = categories.flatMap(([, list]) => list);
  const current = tab === ALL || categories.some(([name]) => name === tab) ? tab : ALL;
  const shown = (current === ALL ? all : (details.challenges[current] ?? [])).filter(
    (challenge) => !hideSolved || !solvedIds.has(challenge.id),
  );
  const open: ChallengeInfo | undefined = all.find((challenge) => challenge.id === openId);

  if (all.length === 0) return <Typography color="text.secondary">{t('game:board.empty')}</Typography>;

  return (
    <Stack spacing={2}>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1}
        sx={{ alignItems: { sm: 'center' }, justifyContent: 'space-between' }}
      >
        <Tabs
          value={current}
          onChange={(_event, value: string) => setTab(value)}
          variant="scrollable"
          scrollButtons="auto"
          aria-label={t('game:board.categories')}
          sx={{ minWidth: 0 }}
        >
          <Tab value={ALL} label={t('game:board.all', { count: all.length })} />
          {categories.map(([name, list]) => (
            <Tab
              key={name}
              value={name}
              label={t('game:board.category', {
                name: t(`common:category.${name}`, { defaultValue: name }),
                count: list.length,
              })}
            />
          ))}
        </Tabs>
        <FormControlLabel
          control={<Switch checked={hideSolved} onChange={(event) => setHideSolved(event.target.checked)} />}
          label={t('game:board.hideSolved')}
          sx={{ flexShrink: 0 }}
        />
      </Stack>
      {shown.length === 0 ? (
        <Typography color="text.secondary">{t('game:board.allSolved')}</Typography>
      ) : (
        <Grid container spacing={2} component="ul" sx={{ listStyle: 'none', m: 0, p: 0 }}>
          {shown.map((challenge) => (
            <Grid key={challenge.id} size={{ xs: 12, sm: 6, lg: 4 }} component="li">
              <ChallengeCard
                challenge={challenge}
                solved={solvedIds.has(challenge.id)}
                onOpen={() => setOpenId(challenge.id)}
              />
            </Grid>
          ))}
        </Grid>
      )}
      {open && (
        <ChallengeDialog
          gameId={gameId}
          challenge={open}
          solved={solvedIds.has(open.id)}
          onClose={() => setOpenId(null)}
          preview={preview}
        />
      )}
    </Stack>
  );
}
