import SearchIcon from '@mui/icons-material/Search';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import FormControl from '@mui/material/FormControl';
import InputAdornment from '@mui/material/InputAdornment';
import InputLabel from '@mui/material/InputLabel';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Select from '@mui/material/Select';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { getErrorMessage } from '@/shared/api/errors';
import { REFRESH_INTERVAL_MS } from '@/shared/api/baseApi';
import { decodeBloodBonus } from '@/shared/lib/bloodBonus';
import { useDebouncedValue } from '@/shared/lib/useDebouncedValue';
import { DownloadButton } from '@/shared/ui/DownloadButton';
import { PageSpinner } from '@/shared/ui/PageSpinner';
import { useGameGameQuery, useGameScoreboardQuery, type ScoreboardItem } from '../api';
import { useSession } from '@/shared/api/session';
import { BloodMark } from './BloodMark';
import { categoryGroups, DEFAULT_PAGE_SIZE, divisionsOf, timelinesFor, visibleRows } from './board';
import { ScoreboardTable } from './ScoreboardTable';
import { TeamDialog } from './TeamDialog';
import { formatDateTime } from '@/shared/lib/dateTime';

const TimelineChart = lazy(() => import(/* webpackChunkName: "scoreboard-chart" */ './TimelineChart'));

const ALL = '';

/** `/games/:id/scoreboard` (reference §7.4): the top-10 chart, the standings and a team's detail. */
export default function ScoreboardPage() {
  const { t, i18n } = useTranslation('scoreboard');
  const id = Number(useParams().id);
  const viewer = useSession();
  const { data: game } = useGameGameQuery({ id }, { skip: !Number.isInteger(id) });
  const {
    data: board,
    error,
    isLoading,
  } = useGameScoreboardQuery({ id }, { skip: !Number.isInteger(id), pollingInterval: REFRESH_INTERVAL_MS });
  const [division, setDivision] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(0);
  const [pageSize, setPageSize] = useState(DEFAULT_PAGE_SIZE);
  const [openTeamId, setOpenTeamId] = useState<number | null>(null);

  const items = useMemo(() => board?.items ?? [], [board]);
  const divisions = useMemo(() => divisionsOf(items), [items]);
  const groups = useMemo(() => (board ? categoryGroups(board) : []), [board]);
  const challengeById = useMemo(
    () => new Map(groups.flatMap((group) => group.challenges.map((challenge) => [challenge.id, challenge]))),
    [groups],
  );
  // The field shows every keystroke; the thousands of rows are filtered once typing pauses.
  const settledSearch = useDebouncedValue(search);
  const rows = useMemo(() => visibleRows(items, division, settledSearch), [items, division, settledSearch]);
  const timelines = useMemo(() => (board ? timelinesFor(board, division) : []), [board, division]);
  // The dialog follows the polled board, so an open team's detail stays current.
  const openTeam: ScoreboardItem | null = items.find((item) => item.id === openTeamId) ?? null;
  const lastPage = Math.max(0, Math.ceil(rows.length / pageSize) - 1);
  const shownPage = Math.min(page, lastPage);

  if (isLoading) return <PageSpinner />;

  const title = (
    <Typography variant="h4" component="h1">
      {game ? t('titleOf', { game: game.title }) : t('title')}
    </Typography>
  );
  if (!board) {
    return (
      <Stack spacing={2}>
        {title}
        <Alert severity="info">{error ? getErrorMessage(t, error) : t('unavailable')}</Alert>
      </Stack>
    );
  }

  // Beyond GZCTF: players' boards carry the freeze time while an admin-set freeze holds.
  const freezeTime = board.freezeTime ?? null;
  const bonus = decodeBloodBonus(board.bloodBonus);

  return (
    <Stack spacing={2}>
      <Stack
        direction={{ xs: 'column', md: 'row' }}
        spacing={2}
        sx={{ justifyContent: 'space-between', alignItems: { md: 'center' } }}
      >
        {title}
        {viewer.isMonitor ? (
          <DownloadButton url={`/api/game/${id}/scoreboardsheet`} fileName="scoreboard.xlsx">
            {t('downloadSheet')}
          </DownloadButton>
        ) : null}
      </Stack>
      {freezeTime !== null && !viewer.isMonitor ? (
        <Alert severity="warning">{t('frozen', { time: formatDateTime(freezeTime, i18n.language, 'seconds') })}</Alert>
      ) : null}
      <Typography variant="body2" color="text.secondary">
        {t('updated', { time: formatDateTime(board.updateTimeUtc, i18n.language, 'seconds') })}
      </Typography>

      <Paper variant="outlined" sx={{ p: 2 }}>
        <Typography variant="h6" component="h2" gutterBottom>
          {division === null ? t('chart.title') : t('chart.titleDivision', { division })}
        </Typography>
        {timelines.length ? (
          <Suspense
            fallback={
              <Box sx={{ height: 320, display: 'grid', placeItems: 'center' }}>
                <CircularProgress aria-label={t('chart.loading')} />
              </Box>
            }
          >
            <TimelineChart timelines={timelines} until={board.updateTimeUtc} from={game?.start} />
          </Suspense>
        ) : (
          <Typography color="text.secondary">{t('chart.empty')}</Typography>
        )}
      </Paper>

      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{ alignItems: { sm: 'center' }, justifyContent: 'space-between' }}
      >
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          {divisions.length ? (
            <FormControl size="small" sx={{ minWidth: 180 }}>
              <InputLabel id="scoreboard-division">{t('division.label')}</InputLabel>
              <Select
                labelId="scoreboard-division"
                label={t('division.label')}
                value={division ?? ALL}
                onChange={(event) => {
                  setDivision(event.target.value === ALL ? null : event.target.value);
                  setPage(0);
                }}
              >
                <MenuItem value={ALL}>{t('division.all')}</MenuItem>
                {divisions.map((name) => (
                  <MenuItem key={name} value={name}>
                    {name}
                  </MenuItem>
                ))}
              </Select>
            </FormControl>
          ) : null}
          <TextField
            size="small"
            type="search"
            label={t('search')}
            value={search}
            onChange={(event) => {
              setSearch(event.target.value);
              setPage(0);
            }}
            slotProps={{
              input: {
                startAdornment: (
                  <InputAdornment position="start">
                    <SearchIcon fontSize="small" />
                  </InputAdornment>
                ),
              },
            }}
          />
        </Stack>
        <Stack direction="row" spacing={2} sx={{ flexWrap: 'wrap', gap: 1 }} aria-label={t('legend.label')}>
          {(['FirstBlood', 'SecondBlood', 'ThirdBlood'] as const).map((type, index) => (
            <Stack key={type} direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
              <BloodMark type={type} label={t(`type.${type}`)} />
              <Typography variant="body2">
                {t('legend.bonus', {
                  blood: t(`blood.${index}`),
                  bonus: ((index === 0 ? bonus.first : index === 1 ? bonus.second : bonus.third) / 10).toString(),
                })}
              </Typography>
            </Stack>
          ))}
        </Stack>
      </Stack>

      <ScoreboardTable
        rows={rows}
        groups={groups}
        division={division}
        page={shownPage}
        pageSize={pageSize}
        onPageChange={setPage}
        onPageSizeChange={(size) => {
          setPageSize(size);
          setPage(0);
        }}
        onOpenTeam={(team) => setOpenTeamId(team.id)}
      />
      <TeamDialog team={openTeam} challenges={challengeById} onClose={() => setOpenTeamId(null)} />
    </Stack>
  );
}
