import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Grid from '@mui/material/Grid';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useAdminUpdateUserInfoMutation, type AdminUserInfoModel, type Role, type UserInfoModel } from '../api';
import { ROLES } from './RoleChip';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

interface Form {
  userName: string;
  email: string;
  role: Role;
  emailConfirmed: boolean;
  bio: string;
  phone: string;
  realName: string;
  stdNumber: string;
}

const formOf = (user: UserInfoModel): Form => ({
  userName: user.userName ?? '',
  email: user.email ?? '',
  role: user.role ?? 'User',
  emailConfirmed: user.emailConfirmed ?? false,
  bio: user.bio ?? '',
  phone: user.phone ?? '',
  realName: user.realName ?? '',
  stdNumber: user.stdNumber ?? '',
});

type Problems = Partial<Record<keyof Form, string>>;

/** What the contract accepts (reference §3.4): user name 3–15, an e-mail, bio and real name ≤ 128, student number ≤ 64. */
function validate(form: Form): Problems {
  const problems: Problems = {};
  const name = form.userName.trim();
  if ([...name].length < 3 || [...name].length > 15) problems.userName = 'admin:users.edit.error.userName';
  if (!EMAIL.test(form.email.trim())) problems.email = 'admin:users.edit.error.email';
  if ([...form.bio].length > 128) problems.bio = 'admin:users.edit.error.tooLong';
  if ([...form.realName].length > 128) problems.realName = 'admin:users.edit.error.tooLong';
  if ([...form.stdNumber].length > 64) problems.stdNumber = 'admin:users.edit.error.tooLong';
  return problems;
}

interface Props {
  user: UserInfoModel;
  onClose: () => void;
}

/** Edits one user (every field GZCTF's admin may change); the server's refusal is announced centrally. */
export function EditUserDialog({ user, onClose }: Props) {
  const { t } = useTranslation();
  const titleId = useId();
  const [form, setForm] = useState<Form>(() => formOf(user));
  const [submitted, setSubmitted] = useState(false);
  const [update, { isLoading }] = useAdminUpdateUserInfoMutation();
  const problems = validate(form);
  const shown = submitted ? problems : {};

  const set =
    <K extends keyof Form>(key: K) =>
    (value: Form[K]) =>
      setForm((previous) => ({ ...previous, [key]: value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (Object.keys(problems).length > 0 || !user.id) return;
    const model: AdminUserInfoModel = {
      userName: form.userName.trim(),
      email: form.email.trim(),
      role: form.role,
      emailConfirmed: form.emailConfirmed,
      bio: form.bio,
      phone: form.phone.trim(),
      realName: form.realName.trim(),
      stdNumber: form.stdNumber.trim(),
    };
    try {
      await update({ userid: user.id, adminUserInfoModel: model }).unwrap();
      onClose();
    } catch {
      // Announced by the notification listener; the dialog stays open for another try.
    }
  }

  const text = (key: 'userName' | 'email' | 'phone' | 'realName' | 'stdNumber' | 'bio') => ({
    value: form[key],
    onChange: (event: { target: { value: string } }) => set(key)(event.target.value),
    label: t(`admin:users.column.${key === 'bio' ? 'bio' : key}`),
    error: Boolean(shown[key]),
    helperText: shown[key] ? t(shown[key]) : undefined,
    fullWidth: true,
  });

  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} maxWidth="sm" fullWidth>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <DialogTitle id={titleId}>{t('admin:users.edit.title', { userName: user.userName })}</DialogTitle>
        <DialogContent>
          <Grid container spacing={2} sx={{ pt: 1 }}>
            <Grid size={{ xs: 12, sm: 6 }}>
              <TextField {...text('userName')} required autoFocus />
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              <TextField {...text('email')} type="email" required />
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              <TextField
                select
                fullWidth
                label={t('admin:users.column.role')}
                value={form.role}
                onChange={(event) => set('role')(event.target.value as Role)}
              >
                {ROLES.map((role) => (
                  <MenuItem key={role} value={role}>
                    {t(`common:role.${role}`)}
                  </MenuItem>
                ))}
              </TextField>
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }} sx={{ display: 'flex', alignItems: 'center' }}>
              <FormControlLabel
                control={
                  <Switch
                    checked={form.emailConfirmed}
                    onChange={(event) => set('emailConfirmed')(event.target.checked)}
                  />
                }
                label={t('admin:users.column.emailConfirmed')}
              />
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              <TextField {...text('realName')} />
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              <TextField {...text('stdNumber')} />
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              <TextField {...text('phone')} type="tel" />
            </Grid>
            <Grid size={12}>
              <TextField {...text('bio')} multiline minRows={2} />
            </Grid>
          </Grid>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('common:dialog.cancel')}</Button>
          <Button type="submit" variant="contained" loading={isLoading}>
            {t('admin:action.save')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
