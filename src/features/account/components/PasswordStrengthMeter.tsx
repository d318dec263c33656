import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import RadioButtonUncheckedOutlined from '@mui/icons-material/RadioButtonUncheckedOutlined';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { LIMITS, meetsPasswordRule, PASSWORD_RULES, passwordStrength } from '../lib/validation';
import { VISUALLY_HIDDEN } from '@/shared/ui/visuallyHidden';

const LEVELS = ['empty', 'weak', 'fair', 'good', 'strong'] as const;

const COLORS = ['inherit', 'error', 'warning', 'info', 'success'] as const;

/** Strength bar and the password rules, each ticked once met (reference §1.2). */
export function PasswordStrengthMeter({ password }: { password: string }) {
  const { t } = useTranslation();
  const labelId = useId();
  const strength = passwordStrength(password);
  const level = LEVELS[strength];
  return (
    <Box data-testid="password-strength">
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <LinearProgress
          variant="determinate"
          value={strength * 25}
          color={COLORS[strength]}
          aria-labelledby={labelId}
          sx={{ flex: 1, height: 6, borderRadius: 3 }}
        />
        <Typography id={labelId} variant="caption" color="text.secondary" sx={{ minWidth: 72, textAlign: 'right' }}>
          {t('account:strength.label', { level: t(`account:strength.${level}`) })}
        </Typography>
      </Stack>
      <Box
        component="ul"
        sx={{
          listStyle: 'none',
          p: 0,
          m: 0,
          mt: 1,
          display: 'grid',
          gap: 0.25,
          gridTemplateColumns: { sm: '1fr 1fr' },
        }}
      >
        {PASSWORD_RULES.map((rule) => {
          const met = meetsPasswordRule(password, rule);
          return (
            <Stack
              component="li"
              key={rule}
              direction="row"
              spacing={0.5}
              sx={{ position: 'relative', alignItems: 'center', color: met ? 'success.main' : 'text.secondary' }}
            >
              {met ? (
                <CheckCircleOutlined sx={{ fontSize: 16 }} />
              ) : (
                <RadioButtonUncheckedOutlined sx={{ fontSize: 16 }} />
              )}
              <Typography variant="caption">
                {t(`account:strength.rule.${rule}`, { min: LIMITS.password.min })}
                <Box component="span" sx={VISUALLY_HIDDEN}>
                  {` (${t(met ? 'account:strength.met' : 'account:strength.unmet')})`}
                </Box>
              </Typography>
            </Stack>
          );
        })}
      </Box>
    </Box>
  );
}
