import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import FlagOutlined from '@mui/icons-material/FlagOutlined';
import SaveOutlined from '@mui/icons-material/SaveOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import Grid from '@mui/material/Grid';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useId, useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { translateText } from '@/shared/text/textRef';
import { useConfirm } from '@/shared/ui/ConfirmProvider';
import {
  useEditDeleteGameChallengeMutation,
  useEditUpdateGameChallengeMutation,
  type ChallengeEditDetailModel,
} from '../../api';
import { AttachmentEditor } from '../components/AttachmentEditor';
import { CategoryBadge } from '../components/CategoryBadge';
import { CategorySelect } from '../components/CategorySelect';
import { ChallengePageFrame } from '../components/ChallengePageFrame';
import { ContainerFields } from '../components/ContainerFields';
import { EnableSwitch } from '../components/EnableSwitch';
import { HintsEditor } from '../components/HintsEditor';
import { MarkdownField } from '../../components/MarkdownField';
import { ScoringFields } from '../components/ScoringFields';
import { TestContainerPanel } from '../components/TestContainerPanel';
import {
  formFromChallenge,
  hasChallengeAttachment,
  isContainerType,
  updateModel,
  validateForm,
  type ChallengeForm,
} from '../lib/challengeForm';
import { challengesPath, flagsPath, useChallengeRoute } from '../lib/useChallengeRoute';
import { useStoredForm } from '../../lib/useStoredForm';

/** A titled part of the form. */
function Section({ title, children }: { title: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <Paper variant="outlined" component="section" aria-labelledby={headingId} sx={{ p: { xs: 2, md: 3 } }}>
      <Typography id={headingId} variant="h6" component="h3" sx={{ mb: 2, fontWeight: 600 }}>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

/**
 * The form of one loaded challenge: it starts from the stored values, follows reloads (after a save,
 * a flag or attachment change) while nothing is typed, and keeps what is typed otherwise.
 */
function ChallengeEditor({ gameId, challenge }: { gameId: number; challenge: ChallengeEditDetailModel }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const confirm = useConfirm();
  const [update, { isLoading: saving }] = useEditUpdateGameChallengeMutation();
  const [remove, { isLoading: deleting }] = useEditDeleteGameChallengeMutation();
  const { form, setForm, markSaved } = useStoredForm(challenge, formFromChallenge);
  const [showErrors, setShowErrors] = useState(false);
  const { type } = challenge;
  const errors = useMemo(() => validateForm(form, type), [form, type]);
  const shownErrors = showErrors ? errors : {};
  const change = (patch: Partial<ChallengeForm>) => setForm((previous) => ({ ...previous, ...patch }));

  async function save(event: FormEvent) {
    event.preventDefault();
    setShowErrors(true);
    if (Object.keys(errors).length > 0) return;
    const saved = form;
    // A refusal (say, a guessable flag template) is announced; the form keeps what was typed.
    const outcome = await update({ id: gameId, cId: challenge.id, challengeUpdateModel: updateModel(saved, type) });
    if (!('error' in outcome)) markSaved(saved);
  }

  async function deleteChallenge() {
    const confirmed = await confirm({
      title: t('challengeEdit:delete.title'),
      message: t('challengeEdit:delete.message', { title: challenge.title }),
      confirmLabel: t('challengeEdit:delete.confirm'),
      destructive: true,
    });
    if (!confirmed) return;
    const outcome = await remove({ id: gameId, cId: challenge.id });
    if (!('error' in outcome)) void navigate(challengesPath(gameId), { replace: true });
  }

  const busy = saving || deleting;
  return (
    <Stack component="form" noValidate spacing={2.5} onSubmit={(event) => void save(event)}>
      <Stack
        direction={{ xs: 'column', md: 'row' }}
        spacing={2}
        sx={{ justifyContent: 'space-between', alignItems: { md: 'center' } }}
      >
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', minWidth: 0 }}>
          <CategoryBadge category={challenge.category} size={44} />
          <Box sx={{ minWidth: 0 }}>
            <Typography variant="h5" component="h2" sx={{ fontWeight: 700, overflowWrap: 'anywhere' }}>
              {challenge.title}
            </Typography>
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 0.5 }}>
              <Chip size="small" variant="outlined" label={t(`challengeEdit:type.${type}.name`)} />
              <Typography variant="body2" color="text.secondary">
                {t('challengeEdit:edit.accepted', { number: challenge.acceptedCount })}
              </Typography>
            </Stack>
          </Box>
        </Stack>
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
          <EnableSwitch
            gameId={gameId}
            challengeId={challenge.id}
            title={challenge.title}
            isEnabled={challenge.isEnabled}
            showLabel
          />
          <Button
            component={RouterLink}
            to={flagsPath(gameId, challenge.id)}
            variant="outlined"
            startIcon={<FlagOutlined />}
          >
            {t('challengeEdit:edit.flags', { number: challenge.flags.length })}
          </Button>
        </Stack>
      </Stack>

      <Section title={t('challengeEdit:edit.basics')}>
        <Stack spacing={2.5}>
          <Grid container spacing={2}>
            <Grid size={{ xs: 12, md: 7 }}>
              <TextField
                label={t('challengeEdit:form.title')}
                value={form.title}
                onChange={(event) => change({ title: event.target.value })}
                error={Boolean(shownErrors.title)}
                helperText={shownErrors.title ? translateText(t, shownErrors.title) : ' '}
                required
                fullWidth
              />
            </Grid>
            <Grid size={{ xs: 12, md: 5 }}>
              <CategorySelect value={form.category} onChange={(category) => change({ category })} fullWidth />
            </Grid>
          </Grid>
          <MarkdownField
            label={t('challengeEdit:form.content')}
            helperText={t('challengeEdit:form.contentHint')}
            value={form.content}
            onChange={(content) => change({ content })}
            data-testid="challenge-preview"
          />
        </Stack>
      </Section>

      <Section title={t('challengeEdit:hints.title')}>
        <HintsEditor hints={form.hints} onChange={(hints) => change({ hints })} />
      </Section>

      <Section title={t('challengeEdit:score.title')}>
        <ScoringFields form={form} errors={shownErrors} acceptedCount={challenge.acceptedCount} onChange={change} />
      </Section>

      {isContainerType(type) ? (
        <Section title={t('challengeEdit:container.title')}>
          <Stack spacing={3}>
            <ContainerFields form={form} errors={shownErrors} type={type} onChange={change} />
            <Divider />
            <TestContainerPanel
              gameId={gameId}
              challengeId={challenge.id}
              title={challenge.title}
              container={challenge.testContainer}
            />
          </Stack>
        </Section>
      ) : null}

      {hasChallengeAttachment(type) ? (
        <Section title={t('challengeEdit:attachment.title')}>
          <AttachmentEditor gameId={gameId} challengeId={challenge.id} attachment={challenge.attachment} />
        </Section>
      ) : null}

      {type === 'DynamicAttachment' ? (
        <Section title={t('challengeEdit:attachment.title')}>
          <Stack spacing={2}>
            <Alert severity="info">{t('challengeEdit:attachment.dynamicNote')}</Alert>
            <TextField
              label={t('challengeEdit:attachment.fileName')}
              value={form.fileName}
              onChange={(event) => change({ fileName: event.target.value })}
              error={Boolean(shownErrors.fileName)}
              helperText={
                shownErrors.fileName
                  ? translateText(t, shownErrors.fileName)
                  : t('challengeEdit:attachment.fileNameHint')
              }
              fullWidth
            />
          </Stack>
        </Section>
      ) : null}

      {showErrors && Object.keys(errors).length > 0 ? (
        <Alert severity="error">{t('challengeEdit:validation.fixFields')}</Alert>
      ) : null}
      <Stack direction={{ xs: 'column-reverse', sm: 'row' }} spacing={1.5} sx={{ justifyContent: 'space-between' }}>
        <Button
          color="error"
          variant="outlined"
          startIcon={<DeleteOutlined />}
          disabled={busy}
          loading={deleting}
          onClick={() => void deleteChallenge()}
        >
          {t('challengeEdit:delete.confirm')}
        </Button>
        <Button type="submit" variant="contained" startIcon={<SaveOutlined />} disabled={busy} loading={saving}>
          {t('challengeEdit:edit.save')}
        </Button>
      </Stack>
    </Stack>
  );
}

/** `/admin/games/:id/challenges/:chalId`: every setting of one challenge. */
export default function ChallengeEditPage() {
  const { t } = useTranslation();
  const { gameId } = useChallengeRoute();
  return (
    <ChallengePageFrame back={{ to: challengesPath(gameId), label: t('challengeEdit:edit.back') }} spacing={2}>
      {(challenge) => <ChallengeEditor key={challenge.id} gameId={gameId} challenge={challenge} />}
    </ChallengePageFrame>
  );
}
