import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { getErrorMessage } from '@/shared/api/errors';
import type { ProfileUserInfoModel } from '@/shared/api/session';
import { useAccountUpdateMutation } from '../api';
import { LIMITS, maxLengthError, phoneError, userNameError } from '../lib/validation';
import { useForm, type FormErrors } from '../lib/useForm';

export type ProfileValues = { userName: string; realName: string; stdNumber: string; phone: string; bio: string };

export const profileValues = (user: ProfileUserInfoModel): ProfileValues => ({
  userName: user.userName ?? '',
  realName: user.realName ?? '',
  stdNumber: user.stdNumber ?? '',
  phone: user.phone ?? '',
  bio: user.bio ?? '',
});

const validate = (values: ProfileValues): FormErrors<ProfileValues> => ({
  userName: userNameError(values.userName),
  realName: maxLengthError(values.realName, LIMITS.realName),
  stdNumber: maxLengthError(values.stdNumber, LIMITS.stdNumber),
  phone: phoneError(values.phone),
  bio: maxLengthError(values.bio, LIMITS.bio),
});

/**
 * The editable profile (`PUT /api/account/update`). Starts from the saved values; the page remounts
 * it when they change, so a save (which refreshes the profile) leaves a clean form.
 */
export function ProfileForm({ initial }: { initial: ProfileValues }) {
  const { t } = useTranslation();
  const [update, { isLoading, error, reset }] = useAccountUpdateMutation();
  const form = useForm(initial, validate);
  const dirty = (Object.keys(initial) as Array<keyof ProfileValues>).some((key) => form.values[key] !== initial[key]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    reset();
    if (!form.check()) return;
    const { userName, realName, stdNumber, phone, bio } = form.values;
    await update({
      profileUpdateModel: {
        userName: userName.trim(),
        realName: realName.trim(),
        stdNumber: stdNumber.trim(),
        phone: phone.trim(),
        bio,
      },
    });
  }

  const counter = (value: string, max: number) => `${[...value].length}/${max}`;
  return (
    <Stack component="form" noValidate spacing={2.5} onSubmit={(event) => void submit(event)}>
      {error && <Alert severity="error">{getErrorMessage(t, error)}</Alert>}
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, sm: 6 }}>
          <TextField
            {...form.field(
              'userName',
              t('account:form.userNameHint', { min: LIMITS.userName.min, max: LIMITS.userName.max }),
            )}
            label={t('account:form.userName')}
            autoComplete="username"
            required
            fullWidth
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <TextField {...form.field('realName')} label={t('account:form.realName')} autoComplete="name" fullWidth />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <TextField {...form.field('stdNumber')} label={t('account:form.stdNumber')} fullWidth />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <TextField {...form.field('phone')} type="tel" label={t('account:form.phone')} autoComplete="tel" fullWidth />
        </Grid>
        <Grid size={12}>
          <TextField
            {...form.field('bio', counter(form.values.bio, LIMITS.bio))}
            label={t('account:form.bio')}
            multiline
            minRows={3}
            fullWidth
          />
        </Grid>
      </Grid>
      <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
        <Button disabled={!dirty || isLoading} onClick={() => form.reset(initial)}>
          {t('account:profile.discard')}
        </Button>
        <Button type="submit" variant="contained" disabled={!dirty || isLoading} loading={isLoading}>
          {t('account:profile.save')}
        </Button>
      </Stack>
    </Stack>
  );
}
