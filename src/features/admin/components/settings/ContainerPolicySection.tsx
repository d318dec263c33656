import Grid from '@mui/material/Grid';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAdminUpdateConfigsMutation, type ContainerPolicy } from '../../api';
import { SettingsSection } from './SettingsSection';
import { SwitchRow } from './SwitchRow';

/** The contract's ranges (reference §3.3), in minutes. */
export const CONTAINER_LIMITS = {
  defaultLifetime: [1, 7200],
  extensionDuration: [1, 7200],
  renewalWindow: [1, 360],
} as const;

type NumberField = keyof typeof CONTAINER_LIMITS;
const NUMBER_FIELDS = Object.keys(CONTAINER_LIMITS) as NumberField[];

/** A whole number within the field's range, or undefined. */
export function parseMinutes(field: NumberField, text: string): number | undefined {
  if (!/^\s*\d+\s*$/.test(text)) return undefined;
  const value = Number(text);
  const [min, max] = CONTAINER_LIMITS[field];
  return value >= min && value <= max ? value : undefined;
}

/** Container lifetimes and renewal, and what happens when a team reaches its container limit. */
export function ContainerPolicySection({ policy }: { policy: ContainerPolicy }) {
  const { t } = useTranslation();
  const [autoDestroy, setAutoDestroy] = useState(policy.autoDestroyOnLimitReached);
  const [numbers, setNumbers] = useState<Record<NumberField, string>>(() => ({
    defaultLifetime: String(policy.defaultLifetime),
    extensionDuration: String(policy.extensionDuration),
    renewalWindow: String(policy.renewalWindow),
  }));
  const [update, { isLoading }] = useAdminUpdateConfigsMutation();
  const parsed = Object.fromEntries(
    NUMBER_FIELDS.map((field) => [field, parseMinutes(field, numbers[field])]),
  ) as Record<NumberField, number | undefined>;
  const pristine =
    autoDestroy === policy.autoDestroyOnLimitReached && NUMBER_FIELDS.every((field) => parsed[field] === policy[field]);

  function save() {
    const { defaultLifetime, extensionDuration, renewalWindow } = parsed;
    if (defaultLifetime === undefined || extensionDuration === undefined || renewalWindow === undefined) return;
    void update({
      configEditModel: {
        containerPolicy: {
          autoDestroyOnLimitReached: autoDestroy,
          maxExerciseContainerCountPerUser: policy.maxExerciseContainerCountPerUser,
          defaultLifetime,
          extensionDuration,
          renewalWindow,
        },
      },
    }).catch(() => undefined);
  }

  return (
    <SettingsSection
      title={t('admin:settings.container.title')}
      description={t('admin:settings.container.description')}
      onSave={save}
      saving={isLoading}
      pristine={pristine}
    >
      <SwitchRow
        label={t('admin:settings.container.autoDestroy')}
        description={t('admin:settings.container.autoDestroyHint')}
        checked={autoDestroy}
        onChange={setAutoDestroy}
      />
      <Grid container spacing={2}>
        {NUMBER_FIELDS.map((field) => {
          const [min, max] = CONTAINER_LIMITS[field];
          const invalid = parsed[field] === undefined;
          return (
            <Grid key={field} size={{ xs: 12, sm: 4 }}>
              <TextField
                fullWidth
                type="number"
                label={t(`admin:settings.container.${field}`)}
                value={numbers[field]}
                onChange={(event) => setNumbers((previous) => ({ ...previous, [field]: event.target.value }))}
                error={invalid}
                helperText={
                  invalid
                    ? t('admin:settings.error.range', { min, max })
                    : t(`admin:settings.container.${field}Hint`, { min, max })
                }
                slotProps={{
                  htmlInput: { min, max, step: 1, inputMode: 'numeric' },
                  input: {
                    endAdornment: (
                      <InputAdornment position="end">{t('admin:settings.container.minutes')}</InputAdornment>
                    ),
                  },
                }}
              />
            </Grid>
          );
        })}
      </Grid>
    </SettingsSection>
  );
}
