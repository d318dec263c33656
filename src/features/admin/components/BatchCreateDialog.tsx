import UploadFileOutlined from '@mui/icons-material/UploadFileOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAdminAddUsersMutation } from '../api';
import { BATCH_COLUMNS, parseBatchUsers } from '../lib/batchUsers';

const EXAMPLE = 'alice,alice@example.com,Passw0rd!,Team A\nbob,bob@example.com,S3cret-pass,Team A';

/** Most problems listed at once; the rest are counted. */
const SHOWN_ERRORS = 8;

/**
 * Creates (or updates, for existing names and e-mails) many users at once from pasted lines or a CSV
 * file. Nothing is sent while any line has a problem.
 */
export function BatchCreateDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const [text, setText] = useState('');
  const [addUsers, { isLoading }] = useAdminAddUsersMutation();
  const { users, errors } = useMemo(() => parseBatchUsers(text), [text]);
  const ready = users.length > 0 && errors.length === 0;
  const columns = BATCH_COLUMNS.map((column, index) => (index < 3 ? column : `[${column}]`)).join(',');

  async function submit() {
    if (!ready) return;
    try {
      await addUsers({ body: users }).unwrap();
      onClose();
    } catch {
      // Announced by the notification listener; the text stays for another try.
    }
  }

  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} maxWidth="md" fullWidth>
      <DialogTitle id={titleId}>{t('admin:batch.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 1 }}>{t('admin:batch.description')}</DialogContentText>
        <Box
          component="code"
          sx={{
            display: 'block',
            mb: 2,
            p: 1,
            borderRadius: 1,
            bgcolor: 'action.hover',
            fontSize: 13,
            overflowX: 'auto',
          }}
        >
          {columns}
        </Box>
        <TextField
          autoFocus
          label={t('admin:batch.input')}
          placeholder={EXAMPLE}
          value={text}
          onChange={(event) => setText(event.target.value)}
          multiline
          minRows={8}
          maxRows={16}
          fullWidth
          slotProps={{ htmlInput: { spellCheck: false, sx: { fontFamily: 'monospace', fontSize: 14 } } }}
        />
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ mt: 1, alignItems: { sm: 'center' } }}>
          <Button size="small" startIcon={<UploadFileOutlined />} onClick={() => fileInput.current?.click()}>
            {t('admin:batch.loadFile')}
          </Button>
          <input
            ref={fileInput}
            type="file"
            accept=".csv,.txt,text/csv,text/plain"
            hidden
            onChange={(event) => {
              const file = event.target.files?.[0];
              event.target.value = '';
              if (file) void file.text().then(setText);
            }}
          />
          <Typography variant="body2" color="text.secondary" role="status">
            {t('admin:batch.ready', { number: users.length })}
          </Typography>
        </Stack>
        {errors.length > 0 && (
          <Alert severity="error" sx={{ mt: 2 }}>
            <Box component="ul" sx={{ m: 0, pl: 2 }}>
              {errors.slice(0, SHOWN_ERRORS).map((error) => (
                <li key={`${error.line}-${error.problem}`}>
                  {t('admin:batch.lineError', {
                    line: error.line,
                    problem: t(`admin:batch.problem.${error.problem}`),
                  })}
                </li>
              ))}
            </Box>
            {errors.length > SHOWN_ERRORS && t('admin:batch.moreErrors', { number: errors.length - SHOWN_ERRORS })}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common:dialog.cancel')}</Button>
        <Button variant="contained" disabled={!ready} loading={isLoading} onClick={() => void submit()}>
          {t('admin:batch.create', { number: users.length })}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
