import SaveOutlined from '@mui/icons-material/SaveOutlined';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import Grid from '@mui/material/Grid';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { getErrorMessage } from '@/shared/api/errors';
import { PageSpinner } from '@/shared/ui/PageSpinner';
import { useEditGetGameQuery, useEditUpdateGameMutation, type GameInfoModel } from '../api';
import { BloodBonusFields } from '../components/BloodBonusFields';
import { DivisionsField } from '../components/DivisionsField';
import { MarkdownField } from '../components/MarkdownField';
import { PosterField } from '../components/PosterField';
import { ScoreboardFreezeSection } from '../components/ScoreboardFreezeSection';
import { Section } from '../components/Section';
import { useGameId } from '../lib/gameId';
import { useAnsweredSinceMount, useStoredForm } from '../lib/useStoredForm';
import {
  formToGame,
  gameToForm,
  validateGameForm,
  type GameForm,
  type GameFormErrors,
  type GameFormField,
} from '../lib/gameForm';

type Switches = 'hidden' | 'practiceMode' | 'acceptWithoutReview' | 'writeupRequired';

/**
 * The Info form of one stored game. A reload of the game replaces the form while nothing is typed and
 * leaves the admin's edits alone otherwise (`useStoredForm`).
 */
function GameInfoForm({ gameId, game }: { gameId: number; game: GameInfoModel }) {
  const { t } = useTranslation();
  const { form, setForm, markSaved } = useStoredForm(game, gameToForm);
  const [submitted, setSubmitted] = useState(false);
  const [update, { isLoading, error }] = useEditUpdateGameMutation();

  const errors: GameFormErrors = submitted ? validateGameForm(form) : {};
  const set = <K extends GameFormField>(field: K, value: GameForm[K]) =>
    setForm((previous) => ({ ...previous, [field]: value }));
  const text = (field: GameFormField) => ({
    value: form[field] as string,
    onChange: (event: { target: { value: string } }) => set(field, event.target.value),
    error: !!errors[field],
    helperText: errors[field] ? t(`edit:${errors[field]}`) : undefined,
  });
  const toggle = (field: Switches) => (
    <FormControlLabel
      control={<Switch checked={form[field]} onChange={(event) => set(field, event.target.checked)} />}
      label={
        <span>
          {t(`edit:info.field.${field}`)}
          <Typography component="span" variant="body2" color="text.secondary" sx={{ display: 'block' }}>
            {t(`edit:info.help.${field}`)}
          </Typography>
        </span>
      }
      sx={{ alignItems: 'flex-start', '& .MuiSwitch-root': { mt: -0.5 }, mb: 1 }}
    />
  );

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (Object.keys(validateGameForm(form)).length > 0) return;
    const saved = form;
    // The server's answer (inline below and as a notification) says why a save failed.
    const outcome = await update({ id: gameId, gameInfoModel: formToGame(saved, gameId) });
    if (!('error' in outcome)) markSaved(saved);
  }

  const invalid = submitted && Object.keys(errors).length > 0;
  return (
    <Stack component="form" noValidate spacing={3} onSubmit={(event) => void submit(event)}>
      <Grid container spacing={3}>
        <Grid size={{ xs: 12, md: 8 }}>
          <Section title={t('edit:info.section.about')}>
            <Stack spacing={2}>
              <TextField label={t('edit:info.field.title')} required fullWidth {...text('title')} />
              <TextField label={t('edit:info.field.summary')} fullWidth multiline minRows={2} {...text('summary')} />
              <MarkdownField
                label={t('edit:info.field.content')}
                helperText={t('edit:info.help.content')}
                value={form.content}
                onChange={(value) => set('content', value)}
                data-testid="game-content-preview"
              />
            </Stack>
          </Section>
        </Grid>
        <Grid size={{ xs: 12, md: 4 }}>
          <Section title={t('edit:info.section.poster')}>
            <Stack spacing={2}>
              <PosterField gameId={gameId} poster={game.poster ?? null} title={game.title} />
              <TextField
                label={t('edit:info.field.publicKey')}
                value={game.publicKey ?? ''}
                helperText={t('edit:info.help.publicKey')}
                fullWidth
                multiline
                onFocus={(event) => event.target.select()}
                slotProps={{ htmlInput: { readOnly: true, spellCheck: false, sx: { fontFamily: 'monospace' } } }}
              />
            </Stack>
          </Section>
        </Grid>
      </Grid>

      <Section title={t('edit:info.section.rules')}>
        <Grid container spacing={3}>
          <Grid size={{ xs: 12, md: 6 }}>
            <FormGroup>
              {toggle('hidden')}
              {toggle('practiceMode')}
              {toggle('acceptWithoutReview')}
            </FormGroup>
          </Grid>
          <Grid size={{ xs: 12, md: 6 }}>
            <Stack spacing={2}>
              <TextField
                label={t('edit:info.field.start')}
                type="datetime-local"
                required
                fullWidth
                slotProps={{ inputLabel: { shrink: true } }}
                {...text('start')}
              />
              <TextField
                label={t('edit:info.field.end')}
                type="datetime-local"
                required
                fullWidth
                slotProps={{ inputLabel: { shrink: true } }}
                {...text('end')}
              />
            </Stack>
          </Grid>
          <Grid size={{ xs: 12, md: 6 }}>
            <TextField
              label={t('edit:info.field.inviteCode')}
              fullWidth
              {...text('inviteCode')}
              helperText={t('edit:info.help.inviteCode')}
            />
          </Grid>
          <Grid size={{ xs: 12, md: 6 }}>
            <DivisionsField value={form.divisions} onChange={(value) => set('divisions', value)} />
          </Grid>
          <Grid size={{ xs: 12, sm: 6 }}>
            <TextField
              label={t('edit:info.field.teamMemberCountLimit')}
              fullWidth
              slotProps={{ htmlInput: { inputMode: 'numeric' } }}
              {...text('teamMemberCountLimit')}
              helperText={
                errors.teamMemberCountLimit
                  ? t(`edit:${errors.teamMemberCountLimit}`)
                  : t('edit:info.help.zeroUnlimited')
              }
            />
          </Grid>
          <Grid size={{ xs: 12, sm: 6 }}>
            <TextField
              label={t('edit:info.field.containerCountLimit')}
              fullWidth
              slotProps={{ htmlInput: { inputMode: 'numeric' } }}
              {...text('containerCountLimit')}
              helperText={
                errors.containerCountLimit ? t(`edit:${errors.containerCountLimit}`) : t('edit:info.help.zeroUnlimited')
              }
            />
          </Grid>
          <Grid size={12}>
            <Divider sx={{ mb: 2 }} />
            <BloodBonusFields
              values={{ bloodFirst: form.bloodFirst, bloodSecond: form.bloodSecond, bloodThird: form.bloodThird }}
              errors={errors}
              onChange={(field, value) => set(field, value)}
            />
          </Grid>
        </Grid>
      </Section>

      <Section title={t('edit:info.section.writeup')}>
        <Stack spacing={2}>
          <FormGroup>{toggle('writeupRequired')}</FormGroup>
          <TextField
            label={t('edit:info.field.writeupDeadline')}
            type="datetime-local"
            required={form.writeupRequired}
            slotProps={{ inputLabel: { shrink: true } }}
            sx={{ maxWidth: { md: 360 } }}
            {...text('writeupDeadline')}
          />
          <MarkdownField
            label={t('edit:info.field.writeupNote')}
            value={form.writeupNote}
            onChange={(value) => set('writeupNote', value)}
            rows={5}
          />
        </Stack>
      </Section>

      <Stack spacing={2}>
        {invalid && <Alert severity="warning">{t('edit:info.error.fixFields')}</Alert>}
        {error && <Alert severity="error">{getErrorMessage(t, error)}</Alert>}
        <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
          <Button type="submit" variant="contained" size="large" startIcon={<SaveOutlined />} loading={isLoading}>
            {t('edit:action.save')}
          </Button>
        </Stack>
      </Stack>
    </Stack>
  );
}

/**
 * `/admin/games/:id/info`: every setting of the game (reference §2.4). Saving replaces all of them, so
 * the form starts only from an answer fetched after the page opened: the game frame's cached copy may
 * be as old as the admin's visit, and changes made elsewhere since would be saved away. A reload that
 * fails later is shown above the form, which keeps what was typed.
 */
export default function GameInfoPage() {
  const id = useGameId();
  // Keyed by the game, so opening another one waits for its fresh answer too.
  return <GameInfo key={id} id={id} />;
}

function GameInfo({ id }: { id: number }) {
  const { t } = useTranslation();
  const game = useEditGetGameQuery({ id }, { skip: Number.isNaN(id), refetchOnMountOrArgChange: true });
  const fresh = useAnsweredSinceMount(game.fulfilledTimeStamp);
  const stored = game.data;
  if (!fresh || !stored || stored.id === undefined) {
    return game.error && !game.isFetching ? (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => void game.refetch()}>
            {t('edit:action.retry')}
          </Button>
        }
      >
        {getErrorMessage(t, game.error)}
      </Alert>
    ) : (
      <PageSpinner />
    );
  }
  // A reload of this game goes through the form (see GameInfoForm).
  return (
    <Stack spacing={3}>
      {game.error && (
        <Alert severity="warning">
          <AlertTitle>{t('edit:info.error.reloadFailed')}</AlertTitle>
          {getErrorMessage(t, game.error)}
        </Alert>
      )}
      <GameInfoForm gameId={stored.id} game={stored} />
      <ScoreboardFreezeSection gameId={stored.id} start={stored.start} end={stored.end} />
    </Stack>
  );
}
