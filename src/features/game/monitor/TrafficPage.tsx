import DeleteOutline from '@mui/icons-material/DeleteOutline';
import DeleteSweepOutlined from '@mui/icons-material/DeleteSweepOutlined';
import DownloadOutlined from '@mui/icons-material/DownloadOutlined';
import Alert from '@mui/material/Alert';
import Avatar from '@mui/material/Avatar';
import Chip from '@mui/material/Chip';
import Grid from '@mui/material/Grid';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemAvatar from '@mui/material/ListItemAvatar';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { REFRESH_INTERVAL_MS } from '@/shared/api/baseApi';
import { getErrorMessage, getErrorStatus } from '@/shared/api/errors';
import { categoryLook } from '@/shared/lib/challengeCategory';
import { formatFileSize } from '@/shared/lib/fileSize';
import { useConfirm } from '@/shared/ui/ConfirmProvider';
import {
  captureArchiveUrl,
  captureFileUrl,
  useGameDeleteAllTeamTrafficMutation,
  useGameDeleteTeamTrafficMutation,
  useGameGetChallengesWithTrafficCapturingQuery,
  useGameGetChallengeTrafficQuery,
  useGameGetTeamTrafficFilesQuery,
  type ChallengeTrafficModel,
  type FileRecord,
  type TeamTrafficModel,
} from '../api';
import { useSession } from '@/shared/api/session';
import { formatDateTime } from '@/shared/lib/dateTime';

/** One step of the drill-down: a titled, labelled list. */
function Pane({ title, actions, children }: { title: string; actions?: ReactNode; children: ReactNode }) {
  const headingId = useId();
  return (
    <Paper variant="outlined" component="section" aria-labelledby={headingId} sx={{ height: '100%' }}>
      <Stack
        direction="row"
        spacing={1}
        sx={{ px: 2, pt: 1.5, pb: 1, alignItems: 'center', justifyContent: 'space-between', minHeight: 52 }}
      >
        <Typography id={headingId} variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
          {title}
        </Typography>
        {actions}
      </Stack>
      {children}
    </Paper>
  );
}

/** What a pane says when it has nothing to list (why, and what to do). */
function Empty({ children }: { children: ReactNode }) {
  return (
    <Typography variant="body2" color="text.secondary" sx={{ px: 2, pb: 2 }}>
      {children}
    </Typography>
  );
}

/** One choice among a pane's items; the chosen one is marked current for assistive technology. */
function ChoiceList<Item extends { id: number }>({
  label,
  items,
  selected,
  onSelect,
  children,
}: {
  label: string;
  items: readonly Item[];
  selected: number | null;
  onSelect: (id: number) => void;
  children: (item: Item) => ReactNode;
}) {
  return (
    <List dense aria-label={label}>
      {items.map((item) => (
        // Each button in its own item: a list holds only items (WCAG 1.3.1).
        <ListItem key={item.id} disablePadding>
          <ListItemButton
            selected={item.id === selected}
            aria-current={item.id === selected ? 'true' : undefined}
            onClick={() => onSelect(item.id)}
          >
            {children(item)}
          </ListItemButton>
        </ListItem>
      ))}
    </List>
  );
}

/** A challenge's line in the first pane: its category's icon, title, category and capture count. */
function ChallengeItem({ challenge }: { challenge: ChallengeTrafficModel }) {
  const { t } = useTranslation('monitor');
  const { icon: Icon, color } = categoryLook(challenge.category);
  return (
    <>
      <ListItemIcon sx={{ minWidth: 36 }}>
        <Icon fontSize="small" sx={{ color }} aria-hidden />
      </ListItemIcon>
      <ListItemText
        primary={challenge.title}
        secondary={t('traffic.challengeMeta', {
          category: t(`common:category.${challenge.category}`, { defaultValue: challenge.category }),
          count: challenge.count,
        })}
      />
      {!challenge.isEnabled && <Chip size="small" variant="outlined" label={t('traffic.disabled')} />}
    </>
  );
}

/** A team's line in the second pane: avatar (or initial), name, division and file count. */
function TeamItem({ team }: { team: TeamTrafficModel }) {
  const { t } = useTranslation('monitor');
  const name = team.name ?? `#${team.teamId}`;
  const meta = t('traffic.fileCount', { count: team.count });
  return (
    <>
      <ListItemAvatar sx={{ minWidth: 44 }}>
        <Avatar src={team.avatar ?? undefined} alt="" sx={{ width: 32, height: 32, fontSize: 15 }}>
          {name.slice(0, 1).toUpperCase()}
        </Avatar>
      </ListItemAvatar>
      <ListItemText primary={name} secondary={team.division ? `${team.division} · ${meta}` : meta} />
    </>
  );
}

function FileList({
  challengeId,
  partId,
  files,
  onDelete,
  busy,
}: {
  challengeId: number;
  partId: number;
  files: FileRecord[];
  onDelete: (file: FileRecord) => void;
  busy: boolean;
}) {
  const { t, i18n } = useTranslation('monitor');
  return (
    <List dense aria-label={t('traffic.files')}>
      {files.map((file) => (
        <ListItem
          key={file.fileName}
          divider
          secondaryAction={
            <Stack direction="row" spacing={0.5}>
              <Tooltip title={t('traffic.download', { name: file.fileName })}>
                <IconButton
                  size="small"
                  href={captureFileUrl(challengeId, partId, file.fileName)}
                  download={file.fileName}
                  aria-label={t('traffic.download', { name: file.fileName })}
                >
                  <DownloadOutlined fontSize="small" />
                </IconButton>
              </Tooltip>
              <Tooltip title={t('traffic.delete', { name: file.fileName })}>
                <span>
                  <IconButton
                    size="small"
                    disabled={busy}
                    onClick={() => onDelete(file)}
                    aria-label={t('traffic.delete', { name: file.fileName })}
                  >
                    <DeleteOutline fontSize="small" />
                  </IconButton>
                </span>
              </Tooltip>
            </Stack>
          }
          sx={{ pr: 12 }}
        >
          <ListItemText
            primary={file.fileName}
            secondary={`${formatFileSize(file.size)} · ${formatDateTime(file.updateTime, i18n.language, 'seconds')}`}
            slotProps={{ primary: { sx: { fontFamily: 'monospace', wordBreak: 'break-all' } } }}
          />
        </ListItem>
      ))}
    </List>
  );
}

/** A list query's failure: 404 means "nothing recorded yet", which the empty state says instead. */
const failure = (error: unknown) => (error && getErrorStatus(error) !== 404 ? error : undefined);

/**
 * `/games/:id/monitor/traffic` (reference §5.10, §7.4): the challenges that record traffic, then the
 * teams with captures for the chosen one, then that team's pcap files, to download or delete.
 */
export default function TrafficPage() {
  const { t } = useTranslation('monitor');
  const id = Number(useParams().id);
  const viewer = useSession();
  const confirm = useConfirm();
  const [challengeId, setChallengeId] = useState<number | null>(null);
  const [partId, setPartId] = useState<number | null>(null);
  const live = { pollingInterval: REFRESH_INTERVAL_MS };

  const challenges = useGameGetChallengesWithTrafficCapturingQuery({ id }, { ...live, skip: !viewer.isMonitor });
  const teams = useGameGetChallengeTrafficQuery(
    { challengeId: challengeId ?? 0 },
    { ...live, skip: !viewer.isMonitor || challengeId === null },
  );
  const files = useGameGetTeamTrafficFilesQuery(
    { challengeId: challengeId ?? 0, partId: partId ?? 0 },
    { ...live, skip: !viewer.isMonitor || challengeId === null || partId === null },
  );
  const [deleteFile, deletingFile] = useGameDeleteTeamTrafficMutation();
  const [deleteAll, deletingAll] = useGameDeleteAllTeamTrafficMutation();

  if (!viewer.isMonitor) return <Alert severity="warning">{t('monitorsOnly')}</Alert>;

  const challengeList = challenges.data ?? [];
  const challenge = challengeList.find((item) => item.id === challengeId);
  // A skipped query keeps its last data; only what belongs to the current choice is shown.
  const teamList = challengeId !== null ? (teams.currentData ?? []) : [];
  const team = teamList.find((item) => item.id === partId);
  const fileList = partId !== null ? (files.currentData ?? []) : [];
  const busy = deletingFile.isLoading || deletingAll.isLoading;

  async function onDeleteFile(file: FileRecord) {
    if (challengeId === null || partId === null) return;
    const confirmed = await confirm({
      title: t('traffic.deleteConfirm.title'),
      message: t('traffic.deleteConfirm.message', { name: file.fileName }),
      confirmLabel: t('traffic.deleteConfirm.confirm'),
      destructive: true,
    });
    if (confirmed) await deleteFile({ challengeId, partId, filename: file.fileName });
  }

  async function onDeleteAll() {
    if (challengeId === null || partId === null || !team) return;
    const confirmed = await confirm({
      title: t('traffic.deleteAllConfirm.title'),
      message: t('traffic.deleteAllConfirm.message', {
        team: team.name ?? `#${team.teamId}`,
        challenge: challenge?.title ?? '',
      }),
      confirmLabel: t('traffic.deleteAllConfirm.confirm'),
      destructive: true,
    });
    if (confirmed) await deleteAll({ challengeId, partId });
  }

  const challengesError = failure(challenges.error);
  const teamsError = failure(teams.error);
  const filesError = failure(files.error);

  return (
    <Grid container spacing={2}>
      <Grid size={{ xs: 12, md: 4 }}>
        <Pane title={t('traffic.challenges')}>
          {challengesError ? (
            <Alert severity="info" sx={{ mx: 2, mb: 2 }}>
              {getErrorMessage(t, challengesError)}
            </Alert>
          ) : challengeList.length === 0 ? (
            <Empty>{challenges.isLoading ? t('loading') : t('traffic.noChallenges')}</Empty>
          ) : (
            <ChoiceList
              label={t('traffic.challenges')}
              items={challengeList}
              selected={challengeId}
              onSelect={(next) => {
                setChallengeId(next);
                setPartId(null);
              }}
            >
              {(item) => <ChallengeItem challenge={item} />}
            </ChoiceList>
          )}
        </Pane>
      </Grid>
      <Grid size={{ xs: 12, md: 4 }}>
        <Pane title={challenge ? t('traffic.teamsOf', { challenge: challenge.title }) : t('traffic.teams')}>
          {challengeId === null ? (
            <Empty>{t('traffic.chooseChallenge')}</Empty>
          ) : teamsError ? (
            <Alert severity="info" sx={{ mx: 2, mb: 2 }}>
              {getErrorMessage(t, teamsError)}
            </Alert>
          ) : teamList.length === 0 ? (
            <Empty>{teams.isFetching && !teams.currentData ? t('loading') : t('traffic.noTeams')}</Empty>
          ) : (
            <ChoiceList label={t('traffic.teams')} items={teamList} selected={partId} onSelect={setPartId}>
              {(item) => <TeamItem team={item} />}
            </ChoiceList>
          )}
        </Pane>
      </Grid>
      <Grid size={{ xs: 12, md: 4 }}>
        <Pane
          title={team ? t('traffic.filesOf', { team: team.name ?? `#${team.teamId}` }) : t('traffic.files')}
          actions={
            challengeId !== null && partId !== null && fileList.length > 0 ? (
              <Stack direction="row" spacing={0.5}>
                <Tooltip title={t('traffic.downloadAll')}>
                  <IconButton
                    size="small"
                    href={captureArchiveUrl(challengeId, partId)}
                    download
                    aria-label={t('traffic.downloadAll')}
                  >
                    <DownloadOutlined fontSize="small" />
                  </IconButton>
                </Tooltip>
                <Tooltip title={t('traffic.deleteAll')}>
                  <span>
                    <IconButton
                      size="small"
                      color="error"
                      disabled={busy}
                      onClick={() => void onDeleteAll()}
                      aria-label={t('traffic.deleteAll')}
                    >
                      <DeleteSweepOutlined fontSize="small" />
                    </IconButton>
                  </span>
                </Tooltip>
              </Stack>
            ) : null
          }
        >
          {challengeId === null || partId === null ? (
            <Empty>{t('traffic.chooseTeam')}</Empty>
          ) : filesError ? (
            <Alert severity="info" sx={{ mx: 2, mb: 2 }}>
              {getErrorMessage(t, filesError)}
            </Alert>
          ) : fileList.length === 0 ? (
            <Empty>{files.isFetching && !files.currentData ? t('loading') : t('traffic.noFiles')}</Empty>
          ) : (
            <FileList
              challengeId={challengeId}
              partId={partId}
              files={fileList}
              busy={busy}
              onDelete={(file) => void onDeleteFile(file)}
            />
          )}
        </Pane>
      </Grid>
    </Grid>
  );
}
