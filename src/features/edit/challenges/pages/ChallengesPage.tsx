import AddOutlined from '@mui/icons-material/AddOutlined';
import CalculateOutlined from '@mui/icons-material/CalculateOutlined';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import FlagOutlined from '@mui/icons-material/FlagOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { REFRESH_INTERVAL_MS } from '@/shared/api/baseApi';
import { CHALLENGE_CATEGORIES, categoryLook } from '@/shared/lib/challengeCategory';
import { useConfirm } from '@/shared/ui/ConfirmProvider';
import {
  useEditDeleteGameChallengeMutation,
  useEditGetGameChallengesQuery,
  useEditUpdateGameChallengesAcceptedCountMutation,
  type ChallengeInfoModel,
} from '../../api';
import { CategoryBadge } from '../components/CategoryBadge';
import { EnableSwitch } from '../components/EnableSwitch';
import { NewChallengeDialog } from '../components/NewChallengeDialog';
import { challengePath, flagsPath, useChallengeRoute } from '../lib/useChallengeRoute';
import { ChallengeLoadState } from '../components/ChallengeLoadState';

const ALL = 'All';

/** One challenge: what it is, what it is worth, and its switches. */
function ChallengeRow({ gameId, challenge }: { gameId: number; challenge: ChallengeInfoModel }) {
  const { t } = useTranslation();
  const confirm = useConfirm();
  const [remove, { isLoading: deleting }] = useEditDeleteGameChallengeMutation();
  const id = challenge.id ?? 0;
  const { color } = categoryLook(challenge.category);

  async function deleteChallenge() {
    const confirmed = await confirm({
      title: t('challengeEdit:delete.title'),
      message: t('challengeEdit:delete.message', { title: challenge.title }),
      confirmLabel: t('challengeEdit:delete.confirm'),
      destructive: true,
    });
    if (confirmed) void remove({ id: gameId, cId: id });
  }

  return (
    <Paper
      component="li"
      variant="outlined"
      data-testid="challenge-row"
      sx={{ listStyle: 'none', p: 1.5, pl: 2, borderLeft: 4, borderLeftColor: color }}
    >
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', flex: 1, minWidth: 0 }}>
          <CategoryBadge category={challenge.category} />
          <Box sx={{ minWidth: 0 }}>
            <Link
              component={RouterLink}
              to={challengePath(gameId, id)}
              variant="subtitle1"
              underline="hover"
              sx={{ fontWeight: 600, display: 'block', overflowWrap: 'anywhere' }}
            >
              {challenge.title}
            </Link>
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 0.5 }}>
              {/* In text colour: the category's own colour (badge, border) is too faint for text. */}
              <Typography variant="body2" sx={{ fontWeight: 600 }}>
                {t(`common:category.${challenge.category}`)}
              </Typography>
              <Chip size="small" variant="outlined" label={t(`challengeEdit:type.${challenge.type}.name`)} />
            </Stack>
          </Box>
        </Stack>
        <Box sx={{ minWidth: 150, textAlign: { sm: 'right' } }}>
          <Typography sx={{ fontWeight: 700, fontVariantNumeric: 'tabular-nums' }}>
            {t('challengeEdit:list.points', { points: challenge.score ?? 0 })}
          </Typography>
          <Typography variant="caption" color="text.secondary" sx={{ fontVariantNumeric: 'tabular-nums' }}>
            {t('challengeEdit:list.range', { min: challenge.minScore ?? 0, original: challenge.originalScore ?? 0 })}
          </Typography>
        </Box>
        <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', justifyContent: 'flex-end' }}>
          <EnableSwitch
            gameId={gameId}
            challengeId={id}
            title={challenge.title}
            isEnabled={Boolean(challenge.isEnabled)}
          />
          <Tooltip title={t('challengeEdit:list.flags')}>
            <IconButton
              component={RouterLink}
              to={flagsPath(gameId, id)}
              aria-label={t('challengeEdit:list.flagsOf', { title: challenge.title })}
            >
              <FlagOutlined />
            </IconButton>
          </Tooltip>
          <Tooltip title={t('challengeEdit:delete.confirm')}>
            <span>
              <IconButton
                color="error"
                disabled={deleting}
                onClick={() => void deleteChallenge()}
                aria-label={t('challengeEdit:list.deleteOf', { title: challenge.title })}
              >
                <DeleteOutlined />
              </IconButton>
            </span>
          </Tooltip>
        </Stack>
      </Stack>
    </Paper>
  );
}

/**
 * A game's challenges (`/admin/games/:id/challenges`): filter by category, create, enable, recount
 * the accepted solves, delete. Rendered inside the game's frame.
 */
export default function ChallengesPage() {
  const { t } = useTranslation();
  const { gameId } = useChallengeRoute();
  // Scores and accepted counts move while a game runs (spec §7: data refreshes every 10 s).
  const { data, isLoading, error } = useEditGetGameChallengesQuery(
    { id: gameId },
    { refetchOnMountOrArgChange: true, pollingInterval: REFRESH_INTERVAL_MS },
  );
  const [recount, { isLoading: recounting }] = useEditUpdateGameChallengesAcceptedCountMutation();
  const [category, setCategory] = useState<string>(ALL);
  const [creating, setCreating] = useState(false);

  const shown = useMemo(
    () => (data ?? []).filter((challenge) => category === ALL || challenge.category === category),
    [data, category],
  );
  const present = useMemo(() => new Set((data ?? []).map((challenge) => challenge.category)), [data]);

  return (
    <Stack spacing={2.5} sx={{ py: 2 }}>
      <Stack
        direction={{ xs: 'column', md: 'row' }}
        spacing={1.5}
        sx={{ alignItems: { md: 'center' }, justifyContent: 'space-between' }}
      >
        <Typography variant="h5" component="h2" sx={{ fontWeight: 700 }}>
          {t('challengeEdit:list.heading')}
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'center' } }}>
          <TextField
            select
            size="small"
            label={t('challengeEdit:list.filter')}
            value={category}
            onChange={(event) => setCategory(event.target.value)}
            sx={{ minWidth: 180 }}
          >
            <MenuItem value={ALL}>{t('challengeEdit:list.allCategories')}</MenuItem>
            {CHALLENGE_CATEGORIES.map((option) => (
              <MenuItem key={option} value={option} disabled={!present.has(option)}>
                {t(`common:category.${option}`)}
              </MenuItem>
            ))}
          </TextField>
          <Tooltip title={t('challengeEdit:list.recountHint')} describeChild>
            <Button
              variant="outlined"
              startIcon={<CalculateOutlined />}
              loading={recounting}
              onClick={() => void recount({ id: gameId })}
            >
              {t('challengeEdit:list.recount')}
            </Button>
          </Tooltip>
          <Button variant="contained" startIcon={<AddOutlined />} onClick={() => setCreating(true)}>
            {t('challengeEdit:create.open')}
          </Button>
        </Stack>
      </Stack>
      <ChallengeLoadState error={error} isLoading={isLoading} />
      {data && shown.length === 0 ? (
        <Paper variant="outlined" sx={{ p: 4, textAlign: 'center' }}>
          <Typography color="text.secondary">
            {t(data.length === 0 ? 'challengeEdit:list.empty' : 'challengeEdit:list.emptyFilter')}
          </Typography>
        </Paper>
      ) : null}
      {shown.length > 0 ? (
        <Stack component="ul" spacing={1} aria-label={t('challengeEdit:list.heading')} sx={{ m: 0, p: 0 }}>
          {shown.map((challenge) => (
            <ChallengeRow key={challenge.id} gameId={gameId} challenge={challenge} />
          ))}
        </Stack>
      ) : null}
      <NewChallengeDialog gameId={gameId} open={creating} onClose={() => setCreating(false)} />
    </Stack>
  );
}
