import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@/shared/lib/dateTime';

/** "01:02:03", or "2 d 01:02:03" past a day (the days are worded by the caller's text). */
export function remainingParts(ms: number): { days: number; clock: string } {
  const total = Math.max(0, Math.floor(ms / 1000));
  const days = Math.floor(total / 86_400);
  const clock = [Math.floor((total % 86_400) / 3600), Math.floor((total % 3600) / 60), total % 60]
    .map((value) => String(value).padStart(2, '0'))
    .join(':');
  return { days, clock };
}

/**
 * When a container is expected to stop: the time left, ticking every second, with the stop time as
 * its title; once passed, that it is overdue (the server's sweep destroys it within minutes).
 */
export function StopCountdown({ until }: { until: number }) {
  const { t, i18n } = useTranslation();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const left = until - now;
  const { days, clock } = remainingParts(left);
  const text =
    left <= 0
      ? t('admin:instances.overdue')
      : days > 0
        ? t('admin:instances.leftDays', { days, clock })
        : t('admin:instances.left', { clock });
  return (
    <Typography
      variant="body2"
      color={left <= 0 ? 'warning.main' : 'text.primary'}
      title={formatDateTime(until, i18n.language, 'seconds')}
      sx={{ fontVariantNumeric: 'tabular-nums' }}
      noWrap
    >
      {text}
    </Typography>
  );
}
