import AddOutlined from '@mui/icons-material/AddOutlined';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

/**
 * The hint list. Hints reach players when the challenge is saved; changing them on an enabled
 * challenge of a running game posts a "new hint" notice (reference §5.5), which the helper text says.
 */
export function HintsEditor({ hints, onChange }: { hints: string[]; onChange: (hints: string[]) => void }) {
  const { t } = useTranslation();
  const set = (index: number, value: string) => onChange(hints.map((hint, i) => (i === index ? value : hint)));
  return (
    <Stack spacing={1.5}>
      <Typography variant="body2" color="text.secondary">
        {t('challengeEdit:hints.help')}
      </Typography>
      {hints.length === 0 ? <Typography color="text.secondary">{t('challengeEdit:hints.none')}</Typography> : null}
      {hints.map((hint, index) => (
        // Hints have no identity but their place; the list only grows at the end or loses one row.
        <Stack key={index} direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
          <TextField
            label={t('challengeEdit:hints.hint', { number: index + 1 })}
            value={hint}
            onChange={(event) => set(index, event.target.value)}
            multiline
            fullWidth
            size="small"
          />
          <IconButton
            aria-label={t('challengeEdit:hints.remove', { number: index + 1 })}
            onClick={() => onChange(hints.filter((_hint, i) => i !== index))}
          >
            <DeleteOutlined />
          </IconButton>
        </Stack>
      ))}
      <Button startIcon={<AddOutlined />} onClick={() => onChange([...hints, ''])} sx={{ alignSelf: 'flex-start' }}>
        {t('challengeEdit:hints.add')}
      </Button>
    </Stack>
  );
}
