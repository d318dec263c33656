import AddOutlined from '@mui/icons-material/AddOutlined';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { translateText } from '@/shared/text/textRef';
import { useEditAddFlagsMutation } from '../../api';
import { flagLinesError, parseFlagLines } from '../lib/challengeForm';

/** Adds static flags, one per line, in one call (all or none are stored). */
export function StaticFlagsForm({ gameId, challengeId }: { gameId: number; challengeId: number }) {
  const { t } = useTranslation();
  const [add, { isLoading }] = useEditAddFlagsMutation();
  const [text, setText] = useState('');
  const [touched, setTouched] = useState(false);
  const flags = parseFlagLines(text);
  const error = flagLinesError(flags);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (error) return;
    const outcome = await add({ id: gameId, cId: challengeId, body: flags.map((flag) => ({ flag })) });
    if (!('error' in outcome)) {
      setText('');
      setTouched(false);
    }
  }

  return (
    <Stack component="form" noValidate spacing={1.5} onSubmit={(event) => void submit(event)}>
      <TextField
        label={t('challengeEdit:flags.newFlags')}
        value={text}
        onChange={(event) => setText(event.target.value)}
        error={touched && Boolean(error)}
        helperText={touched && error ? translateText(t, error) : t('challengeEdit:flags.newFlagsHint')}
        multiline
        minRows={3}
        fullWidth
        slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: 'ui-monospace, monospace' } } }}
      />
      <Button
        type="submit"
        variant="contained"
        startIcon={<AddOutlined />}
        loading={isLoading}
        sx={{ alignSelf: 'flex-start' }}
      >
        {t('challengeEdit:flags.add')}
      </Button>
    </Stack>
  );
}
