import Alert from '@mui/material/Alert';
import FormControlLabel from '@mui/material/FormControlLabel';
import Grid from '@mui/material/Grid';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { translateText } from '@/shared/text/textRef';
import type { ChallengeForm, FormErrors } from '../lib/challengeForm';

interface Props {
  form: ChallengeForm;
  errors: FormErrors;
  type: string;
  onChange: (patch: Partial<ChallengeForm>) => void;
}

type NumberField = 'cpuCount' | 'memoryLimit' | 'storageLimit' | 'pidsLimit' | 'containerExposePort';

/**
 * Where a container challenge's containers come from and what they may use; for DynamicContainer
 * also the template each team's flag is made from (reference §5.7).
 */
export function ContainerFields({ form, errors, type, onChange }: Props) {
  const { t } = useTranslation();
  const numberField = (field: NumberField, unit: string | null) => {
    const error = errors[field];
    return (
      <TextField
        label={t(`challengeEdit:container.${field}`)}
        value={form[field]}
        onChange={(event) => onChange({ [field]: event.target.value })}
        error={Boolean(error)}
        helperText={error ? translateText(t, error) : t(`challengeEdit:container.${field}Hint`)}
        fullWidth
        slotProps={{
          htmlInput: { inputMode: 'numeric' },
          input: unit ? { endAdornment: <InputAdornment position="end">{unit}</InputAdornment> } : {},
        }}
      />
    );
  };
  return (
    <Stack spacing={2.5}>
      <TextField
        label={t('challengeEdit:container.image')}
        helperText={t('challengeEdit:container.imageHint')}
        placeholder="ghcr.io/example/challenge:latest"
        value={form.containerImage}
        onChange={(event) => onChange({ containerImage: event.target.value })}
        fullWidth
        slotProps={{ htmlInput: { spellCheck: false } }}
      />
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, sm: 6, lg: 4 }}>{numberField('cpuCount', null)}</Grid>
        <Grid size={{ xs: 12, sm: 6, lg: 4 }}>{numberField('memoryLimit', 'MB')}</Grid>
        <Grid size={{ xs: 12, sm: 6, lg: 4 }}>{numberField('storageLimit', 'MB')}</Grid>
        <Grid size={{ xs: 12, sm: 6, lg: 6 }}>{numberField('pidsLimit', null)}</Grid>
        <Grid size={{ xs: 12, sm: 12, lg: 6 }}>{numberField('containerExposePort', null)}</Grid>
      </Grid>
      <FormControlLabel
        control={
          <Switch
            checked={form.enableTrafficCapture}
            onChange={(event) => onChange({ enableTrafficCapture: event.target.checked })}
          />
        }
        label={t('challengeEdit:container.trafficCapture')}
      />
      {type === 'DynamicContainer' ? (
        <Stack spacing={1.5}>
          <TextField
            label={t('challengeEdit:container.flagTemplate')}
            placeholder="flag{[TEAM_HASH]}"
            value={form.flagTemplate}
            onChange={(event) => onChange({ flagTemplate: event.target.value })}
            error={Boolean(errors.flagTemplate)}
            helperText={
              errors.flagTemplate
                ? translateText(t, errors.flagTemplate)
                : t('challengeEdit:container.flagTemplateHint')
            }
            fullWidth
            slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: 'ui-monospace, monospace' } } }}
          />
          <Alert severity="info">{t('challengeEdit:container.templateRules')}</Alert>
        </Stack>
      ) : null}
    </Stack>
  );
}
