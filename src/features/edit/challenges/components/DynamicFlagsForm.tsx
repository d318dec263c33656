import AddOutlined from '@mui/icons-material/AddOutlined';
import CloseOutlined from '@mui/icons-material/CloseOutlined';
import CloudUploadOutlined from '@mui/icons-material/CloudUploadOutlined';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { assetsUploadBody, useAssetsUploadMutation } from '@/shared/api/assets';
import { formatFileSize } from '@/shared/lib/fileSize';
import { useEditAddFlagsMutation } from '../../api';
import { LIMITS } from '../lib/challengeForm';

interface Pending {
  file: File;
  flag: string;
}

const flagOk = (flag: string) => flag.trim() !== '' && [...flag.trim()].length <= LIMITS.flag;

/**
 * DynamicAttachment pairs (reference §5.4: each team draws one flag with its own file). A batch is
 * chosen files, each given its flag; the files go up in one upload, then one flag per file is added
 * with that file's hash. A pair can also point at a remote URL.
 */
export function DynamicFlagsForm({ gameId, challengeId }: { gameId: number; challengeId: number }) {
  const { t } = useTranslation();
  const fileInput = useRef<HTMLInputElement>(null);
  const [upload, { isLoading: uploading }] = useAssetsUploadMutation();
  const [add, { isLoading: adding }] = useEditAddFlagsMutation();
  const [pending, setPending] = useState<Pending[]>([]);
  const [touched, setTouched] = useState(false);
  const [remoteFlag, setRemoteFlag] = useState('');
  const [remoteUrl, setRemoteUrl] = useState('');
  const busy = uploading || adding;

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const files = [...(event.target.files ?? [])];
    event.target.value = '';
    setPending((previous) => [...previous, ...files.map((file) => ({ file, flag: '' }))]);
  };

  async function submitBatch(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (pending.length === 0 || !pending.every((row) => flagOk(row.flag))) return;
    try {
      const stored = await upload({ body: assetsUploadBody(pending.map((row) => row.file)) }).unwrap();
      // The server answers in upload order, so the nth hash belongs to the nth row.
      await add({
        id: gameId,
        cId: challengeId,
        body: pending.map((row, index) => ({
          flag: row.flag.trim(),
          attachmentType: 'Local' as const,
          fileHash: stored[index]?.hash ?? '',
        })),
      }).unwrap();
      setPending([]);
      setTouched(false);
    } catch {
      // The error notification says why; the rows stay for another try.
    }
  }

  async function submitRemote(event: FormEvent) {
    event.preventDefault();
    const outcome = await add({
      id: gameId,
      cId: challengeId,
      body: [{ flag: remoteFlag.trim(), attachmentType: 'Remote', remoteUrl: remoteUrl.trim() }],
    });
    if (!('error' in outcome)) {
      setRemoteFlag('');
      setRemoteUrl('');
    }
  }

  return (
    <Stack spacing={3}>
      <Stack component="form" noValidate spacing={1.5} onSubmit={(event) => void submitBatch(event)}>
        <Typography variant="subtitle1" component="h4" sx={{ fontWeight: 600 }}>
          {t('challengeEdit:flags.batchTitle')}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {t('challengeEdit:flags.batchHelp')}
        </Typography>
        <input ref={fileInput} type="file" multiple hidden data-testid="batch-files" onChange={choose} />
        {pending.map((row, index) => {
          const invalid = touched && !flagOk(row.flag);
          return (
            <Stack
              key={`${row.file.name}-${index}`}
              direction={{ xs: 'column', sm: 'row' }}
              spacing={1.5}
              sx={{ alignItems: { sm: 'flex-start' } }}
              data-testid="pending-pair"
            >
              <Stack sx={{ minWidth: 200, flexShrink: 0, pt: { sm: 1 } }}>
                <Typography sx={{ overflowWrap: 'anywhere', fontWeight: 500 }}>{row.file.name}</Typography>
                <Typography variant="caption" color="text.secondary">
                  {formatFileSize(row.file.size)}
                </Typography>
              </Stack>
              <TextField
                size="small"
                label={t('challengeEdit:flags.flagFor', { name: row.file.name })}
                value={row.flag}
                onChange={(event) =>
                  setPending((rows) =>
                    rows.map((item, i) => (i === index ? { ...item, flag: event.target.value } : item)),
                  )
                }
                error={invalid}
                helperText={invalid ? t('challengeEdit:validation.flagRequired') : ' '}
                fullWidth
                slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: 'ui-monospace, monospace' } } }}
              />
              <IconButton
                aria-label={t('challengeEdit:flags.dropFile', { name: row.file.name })}
                onClick={() => setPending((rows) => rows.filter((_item, i) => i !== index))}
              >
                <CloseOutlined />
              </IconButton>
            </Stack>
          );
        })}
        <Stack direction="row" spacing={1.5}>
          <Button
            variant="outlined"
            startIcon={<CloudUploadOutlined />}
            disabled={busy}
            onClick={() => fileInput.current?.click()}
          >
            {t('challengeEdit:flags.chooseFiles')}
          </Button>
          <Button
            type="submit"
            variant="contained"
            startIcon={<AddOutlined />}
            disabled={pending.length === 0}
            loading={busy}
          >
            {t('challengeEdit:flags.uploadPairs', { number: pending.length })}
          </Button>
        </Stack>
      </Stack>
      <Divider />
      <Stack component="form" noValidate spacing={1.5} onSubmit={(event) => void submitRemote(event)}>
        <Typography variant="subtitle1" component="h4" sx={{ fontWeight: 600 }}>
          {t('challengeEdit:flags.remoteTitle')}
        </Typography>
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={1.5}>
          <TextField
            size="small"
            label={t('challengeEdit:flags.flag')}
            value={remoteFlag}
            onChange={(event) => setRemoteFlag(event.target.value)}
            fullWidth
          />
          <TextField
            size="small"
            type="url"
            label={t('challengeEdit:attachment.url')}
            placeholder="https://"
            value={remoteUrl}
            onChange={(event) => setRemoteUrl(event.target.value)}
            fullWidth
          />
          <Button
            type="submit"
            variant="outlined"
            disabled={!flagOk(remoteFlag) || !/^https?:\/\/\S+$/i.test(remoteUrl.trim())}
            loading={adding}
            sx={{ flexShrink: 0 }}
          >
            {t('challengeEdit:flags.addPair')}
          </Button>
        </Stack>
      </Stack>
    </Stack>
  );
}
