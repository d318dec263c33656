import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Grid from '@mui/material/Grid';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  useAdminUpdateUserInfoMutation,
  useAdminUserInfoQuery,
  type AdminUserInfoModel,
  type ProfileUserInfoModel,
  type Role,
  type UserInfoModel,
} from '../api';
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

/**
 * The form for the freshly read profile. The profile does not carry `emailConfirmed`, so that one
 * comes from the list row; it is sent only when the admin flips it (see `changesOf`).
 */
const formOf = (fresh: ProfileUserInfoModel, row: UserInfoModel): Form => ({
  userName: fresh.userName ?? '',
  email: fresh.email ?? '',
  role: fresh.role ?? row.role ?? 'User',
  emailConfirmed: row.emailConfirmed ?? false,
  bio: fresh.bio ?? '',
  phone: fresh.phone ?? '',
  realName: fresh.realName ?? '',
  stdNumber: fresh.stdNumber ?? '',
});

/** The form as it is sent: names and numbers without the spaces around them. */
const cleaned = (form: Form): Form => ({
  ...form,
  userName: form.userName.trim(),
  email: form.email.trim(),
  phone: form.phone.trim(),
  realName: form.realName.trim(),
  stdNumber: form.stdNumber.trim(),
});

/**
 * Only what the admin changed: null means "unchanged" to the server (reference §3.4), so a field the
 * user edited on their profile while the dialog was open is not written back with the value it had.
 */
function changesOf(initial: Form, form: Form): AdminUserInfoModel {
  const before = cleaned(initial);
  const after = cleaned(form);
  const changes: Record<string, unknown> = {};
  for (const key of Object.keys(after) as (keyof Form)[]) {
    if (after[key] !== before[key]) changes[key] = after[key];
  }
  return changes as AdminUserInfoModel;
}

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

/**
 * Edits one user (every field GZCTF's admin may change). The list row may be minutes old, so the
 * user is read afresh (`GET /api/admin/users/{id}`) when the dialog opens, and the form starts from
 * that answer. The server's refusals are announced centrally.
 */
export function EditUserDialog({ user, onClose }: Props) {
  const { t } = useTranslation();
  const titleId = useId();
  // An answer cached from an earlier opening is as old as the row: only one received since this
  // dialog opened counts. Later answers (the refetch after saving) leave the open form alone.
  const [openedAt] = useState(Date.now);
  const fresh = useAdminUserInfoQuery({ userid: user.id ?? '' }, { skip: !user.id, refetchOnMountOrArgChange: true });
  const loaded = fresh.data && (fresh.fulfilledTimeStamp ?? 0) >= openedAt ? fresh.data : undefined;
  const title = <DialogTitle id={titleId}>{t('admin:users.edit.title', { userName: user.userName })}</DialogTitle>;

  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} maxWidth="sm" fullWidth>
      {loaded ? (
        <EditUserForm initial={formOf(loaded, user)} userId={user.id ?? ''} title={title} onClose={onClose} />
      ) : (
        <>
          {title}
          <DialogContent>
            {fresh.isError && !fresh.isFetching ? (
              <Alert severity="error">{t('admin:users.edit.loadFailed')}</Alert>
            ) : (
              <Box sx={{ display: 'flex', justifyContent: 'center', py: 4 }}>
                <CircularProgress aria-label={t('common:loading')} />
              </Box>
            )}
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>{t('common:dialog.cancel')}</Button>
            {fresh.isError && !fresh.isFetching && (
              <Button variant="contained" onClick={() => void fresh.refetch()}>
                {t('admin:action.retry')}
              </Button>
            )}
          </DialogActions>
        </>
      )}
    </Dialog>
  );
}

function EditUserForm(props: { initial: Form; userId: string; title: ReactNode; onClose: () => void }) {
  const { userId, title, onClose } = props;
  const { t } = useTranslation();
  // Kept from the first answer: the changes are what the admin did to what they were shown.
  const [initial] = useState(props.initial);
  const [form, setForm] = useState<Form>(initial);
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
    if (Object.keys(problems).length > 0 || !userId) return;
    try {
      await update({ userid: userId, adminUserInfoModel: changesOf(initial, form) }).unwrap();
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
    <form onSubmit={(event) => void submit(event)} noValidate>
      {title}
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
  );
}
