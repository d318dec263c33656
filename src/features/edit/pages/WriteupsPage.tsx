import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import DownloadOutlined from '@mui/icons-material/DownloadOutlined';
import OpenInNewOutlined from '@mui/icons-material/OpenInNewOutlined';
import VisibilityOutlined from '@mui/icons-material/VisibilityOutlined';
import Alert from '@mui/material/Alert';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemAvatar from '@mui/material/ListItemAvatar';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { REFRESH_INTERVAL_MS } from '@/shared/api/baseApi';
import { getErrorMessage } from '@/shared/api/errors';
import { useConfirm } from '@/shared/ui/ConfirmProvider';
import { SearchField } from '@/shared/ui/paging/SearchField';
import { PagedListFooter } from '@/shared/ui/paging/PagedListFooter';
import { usePagedList } from '@/shared/ui/paging/usePagedList';
import {
  allWriteupsUrl,
  useAdminWriteupsPageQuery,
  useEditDeleteGameWriteUpsMutation,
  type WriteupInfoModel,
} from '../api';
import { formatDateTime } from '@/shared/lib/dateTime';
import { useGameId } from '../lib/gameId';

/** The chosen writeup as the browser's own PDF viewer shows it, with a link for browsers without one. */
function WriteupViewer({ writeup }: { writeup: WriteupInfoModel }) {
  const { t } = useTranslation();
  const name = writeup.team.name ?? `#${writeup.team.id}`;
  return (
    <Paper variant="outlined" sx={{ height: { xs: 480, md: 720 }, overflow: 'hidden' }}>
      <Box
        component="object"
        data={writeup.url}
        type="application/pdf"
        aria-label={t('edit:writeups.viewerOf', { team: name })}
        sx={{ width: '100%', height: '100%', border: 0, display: 'block' }}
      >
        <Stack spacing={1} sx={{ p: 3 }}>
          <Typography>{t('edit:writeups.noViewer')}</Typography>
          <Link href={writeup.url} target="_blank" rel="noopener">
            {t('edit:writeups.open', { team: name })}
          </Link>
        </Stack>
      </Box>
    </Paper>
  );
}

const NO_WRITEUPS: WriteupInfoModel[] = [];

/**
 * `/admin/games/:id/writeups`: the teams that submitted a writeup, newest first, one page at a time
 * and searched by team name on the server; pick one to read it here, open it in a tab, download
 * every writeup at once as one archive, or delete them all (after confirming).
 */
export default function WriteupsPage() {
  const { t, i18n } = useTranslation();
  const gameId = useGameId();
  const confirm = useConfirm();
  const paging = usePagedList();
  const list = useAdminWriteupsPageQuery(
    { id: gameId, count: paging.count, skip: paging.skip, search: paging.settledSearch || undefined },
    // Teams upload until the deadline (spec §7: data refreshes every 10 s).
    { skip: Number.isNaN(gameId), refetchOnMountOrArgChange: true, pollingInterval: REFRESH_INTERVAL_MS },
  );
  const [removeAll, { isLoading: deleting }] = useEditDeleteGameWriteUpsMutation();
  // The server sends them newest first; a GZCTF server too, but this keeps the order either way.
  const writeups = [...(list.currentData?.items ?? NO_WRITEUPS)].sort((a, b) => b.uploadTimeUtc - a.uploadTimeUtc);
  const total = list.data?.total ?? 0;
  const searching = paging.settledSearch !== '';
  const [chosenId, setChosenId] = useState<number | null>(null);
  const chosen = writeups.find((item) => item.id === chosenId) ?? writeups[0];
  const none = !searching && total === 0;

  async function deleteAll() {
    const confirmed = await confirm({
      title: t('edit:writeups.deleteAllConfirm.title'),
      message: t('edit:writeups.deleteAllConfirm.message'),
      confirmLabel: t('edit:writeups.deleteAll'),
      destructive: true,
    });
    // A failure is announced by the error notification; the list stays as the server has it.
    if (confirmed) await removeAll({ id: gameId });
  }

  return (
    <Stack spacing={2}>
      <Stack
        direction="row"
        spacing={2}
        useFlexGap
        sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap' }}
      >
        <Typography color="text.secondary" role="status">
          {list.isSuccess && !searching ? t('edit:writeups.count', { count: total }) : ' '}
        </Typography>
        <Stack direction="row" spacing={1}>
          <Button
            color="error"
            variant="outlined"
            startIcon={<DeleteOutlined />}
            loading={deleting}
            disabled={none}
            onClick={() => void deleteAll()}
          >
            {t('edit:writeups.deleteAll')}
          </Button>
          <Button
            variant="contained"
            startIcon={<DownloadOutlined />}
            href={allWriteupsUrl(gameId)}
            download
            disabled={none}
          >
            {t('edit:writeups.downloadAll')}
          </Button>
        </Stack>
      </Stack>
      {list.error && <Alert severity="error">{getErrorMessage(t, list.error)}</Alert>}
      {(total > 0 || searching) && (
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, md: 4 }}>
            <Stack spacing={1}>
              <SearchField
                label={t('edit:writeups.search')}
                clearLabel={t('edit:writeups.clearSearch')}
                value={paging.search}
                onChange={paging.setSearch}
              />
              <Paper variant="outlined">
                <List aria-label={t('edit:writeups.list')} disablePadding>
                  {writeups.map((writeup) => {
                    const name = writeup.team.name ?? `#${writeup.team.id}`;
                    return (
                      <ListItem
                        key={writeup.id}
                        disablePadding
                        secondaryAction={
                          <Tooltip title={t('edit:writeups.openTab')}>
                            <IconButton
                              edge="end"
                              href={writeup.url}
                              target="_blank"
                              rel="noopener"
                              aria-label={t('edit:writeups.open', { team: name })}
                            >
                              <OpenInNewOutlined />
                            </IconButton>
                          </Tooltip>
                        }
                      >
                        <ListItemButton
                          selected={writeup.id === chosen?.id}
                          onClick={() => setChosenId(writeup.id)}
                          aria-current={writeup.id === chosen?.id ? 'true' : undefined}
                        >
                          {/* Named by what it shows, the team and the upload time (WCAG 2.5.3). */}
                          <ListItemAvatar>
                            <Avatar src={writeup.team.avatar ?? undefined} alt="">
                              {name.slice(0, 1).toUpperCase()}
                            </Avatar>
                          </ListItemAvatar>
                          <ListItemText
                            primary={name}
                            secondary={t('edit:writeups.uploaded', {
                              time: formatDateTime(writeup.uploadTimeUtc, i18n.language),
                            })}
                          />
                          {writeup.id === chosen?.id && <VisibilityOutlined fontSize="small" color="primary" />}
                        </ListItemButton>
                      </ListItem>
                    );
                  })}
                </List>
                <PagedListFooter list={paging} total={total} />
              </Paper>
            </Stack>
          </Grid>
          <Grid size={{ xs: 12, md: 8 }}>
            {chosen ? (
              <WriteupViewer key={chosen.id} writeup={chosen} />
            ) : (
              <Typography color="text.secondary">{t('edit:writeups.noneFound')}</Typography>
            )}
          </Grid>
        </Grid>
      )}
    </Stack>
  );
}
