import DeleteOutline from '@mui/icons-material/DeleteOutline';
import EditOutlined from '@mui/icons-material/EditOutlined';
import SendOutlined from '@mui/icons-material/SendOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { getErrorMessage } from '@/shared/api/errors';
import { useConfirm } from '@/shared/ui/ConfirmProvider';
import Markdown from '@/shared/ui/Markdown';
import {
  useEditAddGameNoticeMutation,
  useEditDeleteGameNoticeMutation,
  useEditGetGameNoticesQuery,
  type GameNotice,
} from '../api';
import { MarkdownField } from '../components/MarkdownField';
import { NoticeDialog } from '../components/NoticeDialog';
import { formatDateTime } from '@/shared/lib/dateTime';
import { useGameId } from '../lib/gameId';

const NO_NOTICES: GameNotice[] = [];

/** Posts a new Normal notice; the field empties once it is published. */
function NewNotice({ gameId }: { gameId: number }) {
  const { t } = useTranslation();
  const [content, setContent] = useState('');
  const [touched, setTouched] = useState(false);
  const [add, { isLoading, error }] = useEditAddGameNoticeMutation();
  const empty = content.trim() === '';

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (empty) return;
    try {
      await add({ id: gameId, gameNoticeModel: { content } }).unwrap();
      setContent('');
      setTouched(false);
    } catch {
      // Shown below and announced by the notification listener.
    }
  }

  return (
    <Paper
      variant="outlined"
      component="form"
      noValidate
      aria-label={t('edit:notices.new')}
      onSubmit={(event: FormEvent) => void submit(event)}
      sx={{ p: 2 }}
    >
      <Stack spacing={2}>
        <MarkdownField
          label={t('edit:notices.new')}
          value={content}
          onChange={setContent}
          rows={4}
          helperText={touched && empty ? t('edit:notices.required') : t('edit:notices.hint')}
        />
        {error && <Alert severity="error">{getErrorMessage(t, error)}</Alert>}
        <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
          <Button type="submit" variant="contained" startIcon={<SendOutlined />} loading={isLoading}>
            {t('edit:notices.publish')}
          </Button>
        </Stack>
      </Stack>
    </Paper>
  );
}

/**
 * `/admin/games/:id/notices`: the game's notices, newest first. Admins write Normal notices and may
 * edit or delete them; blood, hint and new-challenge notices are the platform's record and show
 * read-only with their type.
 */
export default function NoticesPage() {
  const { t, i18n } = useTranslation();
  const gameId = useGameId();
  const confirm = useConfirm();
  const notices = useEditGetGameNoticesQuery({ id: gameId }, { skip: Number.isNaN(gameId) });
  const [remove] = useEditDeleteGameNoticeMutation();
  const [editing, setEditing] = useState<GameNotice | null>(null);
  const sorted = useMemo(() => [...(notices.data ?? NO_NOTICES)].sort((a, b) => b.time - a.time), [notices.data]);

  async function onDelete(notice: GameNotice) {
    const confirmed = await confirm({
      title: t('edit:notices.deleteConfirm.title'),
      message: t('edit:notices.deleteConfirm.message'),
      confirmLabel: t('edit:action.delete'),
      destructive: true,
    });
    if (confirmed) await remove({ id: gameId, noticeId: notice.id }).catch(() => undefined);
  }

  return (
    <Stack spacing={2}>
      <NewNotice gameId={gameId} />
      {notices.error && <Alert severity="error">{getErrorMessage(t, notices.error)}</Alert>}
      {notices.isSuccess && sorted.length === 0 && (
        <Typography color="text.secondary" role="status">
          {t('edit:notices.none')}
        </Typography>
      )}
      <Stack component="ul" spacing={1.5} aria-label={t('edit:notices.list')} sx={{ listStyle: 'none', p: 0, m: 0 }}>
        {sorted.map((notice) => {
          const editable = notice.type === 'Normal';
          return (
            <Card
              component="li"
              variant="outlined"
              key={notice.id}
              aria-label={t('edit:notices.item', { id: notice.id })}
            >
              <CardContent sx={{ '&:last-child': { pb: 2 } }}>
                <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
                  <Chip
                    size="small"
                    color={editable ? 'primary' : 'default'}
                    variant={editable ? 'filled' : 'outlined'}
                    label={t(`common:noticeType.${notice.type}`)}
                  />
                  <Typography variant="body2" color="text.secondary" sx={{ flex: 1 }}>
                    {formatDateTime(notice.time, i18n.language)}
                  </Typography>
                  {editable && (
                    <>
                      <Tooltip title={t('edit:action.edit')}>
                        <IconButton
                          aria-label={t('edit:notices.edit', { id: notice.id })}
                          onClick={() => setEditing(notice)}
                        >
                          <EditOutlined />
                        </IconButton>
                      </Tooltip>
                      <Tooltip title={t('edit:action.delete')}>
                        <IconButton
                          aria-label={t('edit:notices.delete', { id: notice.id })}
                          color="error"
                          onClick={() => void onDelete(notice)}
                        >
                          <DeleteOutline />
                        </IconButton>
                      </Tooltip>
                    </>
                  )}
                </Stack>
                {editable ? (
                  <Markdown source={notice.values[0] ?? ''} />
                ) : (
                  <Typography>{notice.values.join(' · ')}</Typography>
                )}
              </CardContent>
            </Card>
          );
        })}
      </Stack>
      {editing && <NoticeDialog key={editing.id} gameId={gameId} notice={editing} onClose={() => setEditing(null)} />}
    </Stack>
  );
}
