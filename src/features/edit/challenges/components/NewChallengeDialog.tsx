import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { ChallengeCategoryName } from '@/shared/lib/challengeCategory';
import { useEditAddGameChallengeMutation } from '../../api';
import { CHALLENGE_TYPES, type ChallengeTypeName } from '../lib/challengeForm';
import { challengePath } from '../lib/useChallengeRoute';
import { CategorySelect } from './CategorySelect';

/**
 * Creates a challenge from its title, category and type (the rest takes the server's defaults; it
 * starts disabled) and opens its edit page, where everything else is set.
 */
export function NewChallengeDialog({ gameId, open, onClose }: { gameId: number; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const titleId = useId();
  const [add, { isLoading }] = useEditAddGameChallengeMutation();
  const [title, setTitle] = useState('');
  const [category, setCategory] = useState<ChallengeCategoryName>('Misc');
  const [type, setType] = useState<ChallengeTypeName>('StaticAttachment');
  const [touched, setTouched] = useState(false);
  const titleMissing = !title.trim();

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (titleMissing) return;
    try {
      const created = await add({ id: gameId, challengeInfoModel: { title: title.trim(), category, type } }).unwrap();
      onClose();
      void navigate(challengePath(gameId, created.id));
    } catch {
      // The error notification says why; the dialog keeps what was typed.
    }
  }

  return (
    <Dialog open={open} onClose={isLoading ? undefined : onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <form noValidate onSubmit={(event) => void submit(event)}>
        <DialogTitle id={titleId}>{t('challengeEdit:create.title')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2.5} sx={{ pt: 1 }}>
            <TextField
              autoFocus
              label={t('challengeEdit:form.title')}
              value={title}
              onChange={(event) => setTitle(event.target.value)}
              onBlur={() => setTouched(true)}
              error={touched && titleMissing}
              helperText={touched && titleMissing ? t('challengeEdit:validation.titleRequired') : ' '}
              required
              fullWidth
            />
            <CategorySelect value={category} onChange={setCategory} fullWidth />
            <TextField
              select
              label={t('challengeEdit:form.type')}
              value={type}
              onChange={(event) => setType(event.target.value as ChallengeTypeName)}
              helperText={t('challengeEdit:create.typeFixed')}
              fullWidth
              slotProps={{ select: { renderValue: (value) => t(`challengeEdit:type.${String(value)}.name`) } }}
            >
              {CHALLENGE_TYPES.map((option) => (
                <MenuItem key={option} value={option}>
                  <ListItemText
                    primary={t(`challengeEdit:type.${option}.name`)}
                    secondary={t(`challengeEdit:type.${option}.description`)}
                    slotProps={{ secondary: { sx: { whiteSpace: 'normal' } } }}
                  />
                </MenuItem>
              ))}
            </TextField>
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={isLoading}>
            {t('common:dialog.cancel')}
          </Button>
          <Button type="submit" variant="contained" loading={isLoading}>
            {t('challengeEdit:create.submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
