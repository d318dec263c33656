import CloudUploadOutlined from '@mui/icons-material/CloudUploadOutlined';
import LinkOutlined from '@mui/icons-material/LinkOutlined';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useId, useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { assetsUploadBody, useAssetsUploadMutation } from '@/shared/api/assets';
import { formatFileSize } from '@/shared/lib/fileSize';
import { useEditUpdateAttachmentMutation, type Attachment } from '../../api';

type Mode = 'Local' | 'Remote' | 'None';

/** The file name at the end of a local attachment's `/assets/{hash}/{name}` URL, or the URL itself. */
function attachmentName(attachment: Attachment): string {
  const url = attachment.url ?? '';
  if (attachment.type !== 'Local') return url;
  const last = url.split('/').pop() ?? url;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

/**
 * The one attachment of a static challenge: upload a file (stored through `/api/assets`, then linked
 * by its hash), point at a remote URL, or remove it. The server replaces the previous attachment.
 */
export function AttachmentEditor({
  gameId,
  challengeId,
  attachment,
}: {
  gameId: number;
  challengeId: number;
  attachment: Attachment | null | undefined;
}) {
  const { t } = useTranslation();
  const inputId = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const [upload, { isLoading: uploading }] = useAssetsUploadMutation();
  const [setAttachment, { isLoading: saving }] = useEditUpdateAttachmentMutation();
  const [mode, setMode] = useState<Mode>(attachment?.type === 'Remote' ? 'Remote' : 'Local');
  const [url, setUrl] = useState(attachment?.type === 'Remote' ? (attachment.url ?? '') : '');
  const busy = uploading || saving;

  async function uploadFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = ''; // choosing the same file again still uploads it
    if (!file) return;
    try {
      const [stored] = await upload({ body: assetsUploadBody([file]) }).unwrap();
      if (!stored) return;
      await setAttachment({
        id: gameId,
        cId: challengeId,
        attachmentCreateModel: { attachmentType: 'Local', fileHash: stored.hash },
      }).unwrap();
    } catch {
      // The error notification says why; the stored attachment is unchanged.
    }
  }

  const setRemote = () =>
    void setAttachment({
      id: gameId,
      cId: challengeId,
      attachmentCreateModel: { attachmentType: 'Remote', remoteUrl: url.trim() },
    });
  const clear = () =>
    void setAttachment({ id: gameId, cId: challengeId, attachmentCreateModel: { attachmentType: 'None' } });

  return (
    <Stack spacing={2}>
      <Stack spacing={0.5} data-testid="current-attachment">
        <Typography variant="subtitle2">{t('challengeEdit:attachment.current')}</Typography>
        {attachment && attachment.type !== 'None' ? (
          <Stack direction="row" spacing={1} sx={{ alignItems: 'baseline', flexWrap: 'wrap' }}>
            <Link
              href={attachment.url ?? undefined}
              target="_blank"
              rel="noopener noreferrer"
              sx={{ overflowWrap: 'anywhere' }}
            >
              {attachmentName(attachment)}
            </Link>
            <Typography variant="body2" color="text.secondary">
              {attachment.type === 'Local' && typeof attachment.fileSize === 'number'
                ? t('challengeEdit:attachment.localSize', { size: formatFileSize(attachment.fileSize) })
                : t('challengeEdit:attachment.remote')}
            </Typography>
          </Stack>
        ) : (
          <Typography color="text.secondary">{t('challengeEdit:attachment.none')}</Typography>
        )}
      </Stack>
      <ToggleButtonGroup
        exclusive
        size="small"
        value={mode}
        onChange={(_event, next: Mode | null) => next && setMode(next)}
        aria-label={t('challengeEdit:attachment.kind')}
      >
        <ToggleButton value="Local">{t('challengeEdit:attachment.modeLocal')}</ToggleButton>
        <ToggleButton value="Remote">{t('challengeEdit:attachment.modeRemote')}</ToggleButton>
        <ToggleButton value="None">{t('challengeEdit:attachment.modeNone')}</ToggleButton>
      </ToggleButtonGroup>
      {mode === 'Local' ? (
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          spacing={1.5}
          sx={{ alignItems: { xs: 'flex-start', sm: 'center' } }}
        >
          <input
            ref={fileInput}
            id={inputId}
            type="file"
            hidden
            data-testid="attachment-file"
            onChange={(event) => void uploadFile(event)}
          />
          <Button
            variant="outlined"
            startIcon={<CloudUploadOutlined />}
            loading={busy}
            onClick={() => fileInput.current?.click()}
          >
            {t('challengeEdit:attachment.upload')}
          </Button>
          <Typography variant="body2" color="text.secondary">
            {t('challengeEdit:attachment.uploadHint')}
          </Typography>
        </Stack>
      ) : null}
      {mode === 'Remote' ? (
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'flex-start' } }}>
          <TextField
            label={t('challengeEdit:attachment.url')}
            placeholder="https://"
            value={url}
            onChange={(event) => setUrl(event.target.value)}
            size="small"
            type="url"
            fullWidth
          />
          <Button
            variant="outlined"
            startIcon={<LinkOutlined />}
            disabled={!/^https?:\/\/\S+$/i.test(url.trim())}
            loading={busy}
            onClick={setRemote}
            sx={{ flexShrink: 0 }}
          >
            {t('challengeEdit:attachment.setUrl')}
          </Button>
        </Stack>
      ) : null}
      {mode === 'None' ? (
        <Button
          variant="outlined"
          color="error"
          disabled={!attachment || attachment.type === 'None'}
          loading={busy}
          onClick={clear}
          sx={{ alignSelf: 'flex-start' }}
        >
          {t('challengeEdit:attachment.remove')}
        </Button>
      ) : null}
    </Stack>
  );
}
