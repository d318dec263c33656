import FormControlLabel from '@mui/material/FormControlLabel';
import Grid from '@mui/material/Grid';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useDeferredValue, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { translateText } from '@/shared/text/textRef';
import { parseNumber, type ChallengeForm, type FormErrors } from '../lib/challengeForm';
import { minimumScore, scoreAfter } from '../lib/scoreCurve';

// The chart library loads with the first challenge opened, never with the list or other pages.
const ScoreCurveChart = lazy(() => import(/* webpackChunkName: "score-curve" */ './ScoreCurveChart'));

interface Props {
  form: ChallengeForm;
  errors: FormErrors;
  acceptedCount: number;
  onChange: (patch: Partial<ChallengeForm>) => void;
}

/** Original score, minimum rate and difficulty, with the curve they make drawn as they are typed. */
export function ScoringFields({ form, errors, acceptedCount, onChange }: Props) {
  const { t } = useTranslation();
  // The chart may trail typing; deferring the texts (not a fresh object) keeps that to one render.
  const originalScore = parseNumber(useDeferredValue(form.originalScore));
  const minScoreRate = parseNumber(useDeferredValue(form.minScoreRate));
  const difficulty = parseNumber(useDeferredValue(form.difficulty));
  const params = useMemo(
    () => ({ originalScore, minScoreRate, difficulty }),
    [originalScore, minScoreRate, difficulty],
  );
  const current = scoreAfter(params, acceptedCount);
  const helper = (field: keyof ChallengeForm, hint: string) => {
    const error = errors[field];
    return error ? translateText(t, error) : hint;
  };
  return (
    <Grid container spacing={3}>
      <Grid size={{ xs: 12, md: 5 }}>
        <Stack spacing={2}>
          <TextField
            label={t('challengeEdit:score.original')}
            value={form.originalScore}
            onChange={(event) => onChange({ originalScore: event.target.value })}
            error={Boolean(errors.originalScore)}
            helperText={helper('originalScore', t('challengeEdit:score.originalHint'))}
            slotProps={{ htmlInput: { inputMode: 'numeric' } }}
            required
          />
          <TextField
            label={t('challengeEdit:score.minRate')}
            value={form.minScoreRate}
            onChange={(event) => onChange({ minScoreRate: event.target.value })}
            error={Boolean(errors.minScoreRate)}
            helperText={helper('minScoreRate', t('challengeEdit:score.minRateHint'))}
            slotProps={{ htmlInput: { inputMode: 'decimal' } }}
            required
          />
          <TextField
            label={t('challengeEdit:score.difficulty')}
            value={form.difficulty}
            onChange={(event) => onChange({ difficulty: event.target.value })}
            error={Boolean(errors.difficulty)}
            helperText={helper('difficulty', t('challengeEdit:score.difficultyHint'))}
            slotProps={{ htmlInput: { inputMode: 'decimal' } }}
            required
          />
          <FormControlLabel
            control={
              <Switch
                checked={form.disableBloodBonus}
                onChange={(event) => onChange({ disableBloodBonus: event.target.checked })}
              />
            }
            label={t('challengeEdit:score.disableBloodBonus')}
          />
        </Stack>
      </Grid>
      <Grid size={{ xs: 12, md: 7 }}>
        <Stack spacing={1}>
          <Typography variant="body2" color="text.secondary" aria-live="polite">
            {Number.isFinite(current)
              ? t('challengeEdit:score.summary', {
                  solves: acceptedCount,
                  current,
                  min: minimumScore(params),
                })
              : t('challengeEdit:score.invalid')}
          </Typography>
          <Suspense fallback={<Skeleton variant="rounded" height={260} />}>
            <ScoreCurveChart params={params} />
          </Suspense>
        </Stack>
      </Grid>
    </Grid>
  );
}
