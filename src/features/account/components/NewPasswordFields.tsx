import Stack from '@mui/material/Stack';
import type { ComponentProps } from 'react';
import { useTranslation } from 'react-i18next';
import { PasswordField } from './PasswordField';
import { PasswordStrengthMeter } from './PasswordStrengthMeter';

type FieldProps = Omit<ComponentProps<typeof PasswordField>, 'label'> & { value: string };

/**
 * A new password with its strength meter, then its confirmation: registration, reset and password
 * change ask for a new password the same way. Takes `form.field('password')` and `form.field('confirm')`.
 */
export function NewPasswordFields({
  password,
  confirm,
  label,
}: {
  password: FieldProps;
  confirm: FieldProps;
  label: string;
}) {
  const { t } = useTranslation();
  return (
    <>
      <Stack spacing={1}>
        <PasswordField {...password} label={label} autoComplete="new-password" required fullWidth />
        <PasswordStrengthMeter password={password.value} />
      </Stack>
      <PasswordField
        {...confirm}
        label={t('account:form.confirmPassword')}
        autoComplete="new-password"
        required
        fullWidth
      />
    </>
  );
}
