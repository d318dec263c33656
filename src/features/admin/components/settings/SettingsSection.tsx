import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useId, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface Props {
  title: string;
  description?: string;
  children: ReactNode;
  /** Given for sections saved as a whole: renders the form and its Save button. */
  onSave?: () => void;
  saving?: boolean;
  /** Nothing changed since the last save. */
  pristine?: boolean;
}

/** One card of the settings page; each section is saved on its own. */
export function SettingsSection({ title, description, children, onSave, saving, pristine }: Props) {
  const { t } = useTranslation();
  const headingId = useId();
  const body = (
    <Stack spacing={2.5}>
      <div>
        <Typography id={headingId} variant="h6" component="h3">
          {title}
        </Typography>
        {description && (
          <Typography variant="body2" color="text.secondary">
            {description}
          </Typography>
        )}
      </div>
      {children}
      {onSave && (
        <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
          <Button type="submit" variant="contained" loading={saving} disabled={pristine}>
            {t('admin:settings.save')}
          </Button>
        </Stack>
      )}
    </Stack>
  );
  return (
    <Paper component="section" aria-labelledby={headingId} variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
      {onSave ? (
        <form
          noValidate
          onSubmit={(event: FormEvent) => {
            event.preventDefault();
            onSave();
          }}
        >
          {body}
        </form>
      ) : (
        body
      )}
    </Paper>
  );
}
