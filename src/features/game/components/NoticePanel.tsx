import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { REFRESH_INTERVAL_MS } from '@/shared/api/baseApi';
import Markdown from '@/shared/ui/Markdown';
import { useGameNoticesQuery, type GameNotice } from '../api';
import { byNewest, isBloodNotice, noticeText } from '../lib/notices';
import { BLOOD_COLORS } from './BloodMarks';
import { LoadError } from './LoadError';
import { formatDateTime } from '@/shared/lib/dateTime';

const BLOOD_INDEX = { FirstBlood: 0, SecondBlood: 1, ThirdBlood: 2 } as const;

function NoticeItem({ notice }: { notice: GameNotice }) {
  const { t, i18n } = useTranslation();
  const blood = isBloodNotice(notice.type);
  const accent = blood ? BLOOD_COLORS[BLOOD_INDEX[notice.type as keyof typeof BLOOD_INDEX]] : undefined;
  const text = noticeText(notice);
  return (
    <Box
      component="li"
      data-notice-type={notice.type}
      sx={{
        px: 1.5,
        py: 1,
        borderRadius: 1,
        borderLeft: 4,
        borderLeftColor: accent ?? (notice.type === 'Normal' ? 'primary.main' : 'divider'),
        bgcolor: blood ? 'action.hover' : undefined,
      }}
    >
      <Typography variant="caption" color="text.secondary" component="p">
        <time dateTime={new Date(notice.time).toISOString()}>
          {formatDateTime(notice.time, i18n.language, 'medium')}
        </time>
        {' · '}
        {t(`common:noticeType.${notice.type}`)}
      </Typography>
      {notice.type === 'Normal' ? (
        <Markdown source={notice.values[0] ?? ''} sx={{ '& p': { my: 0.5 } }} />
      ) : (
        <Typography variant="body2" sx={{ fontWeight: blood ? 600 : undefined }}>
          {t(text.key, text.values)}
        </Typography>
      )}
    </Box>
  );
}

/**
 * The game's notices, newest first: the organisers' announcements, bloods (highlighted), new hints
 * and new challenges. Polled every 10 s and pushed live on `/hub/user` (see api.ts).
 */
export function NoticePanel({ gameId }: { gameId: number }) {
  const { t } = useTranslation();
  const headingId = useId();
  const { data, error, refetch } = useGameNoticesQuery({ id: gameId }, { pollingInterval: REFRESH_INTERVAL_MS });
  const notices = data ? byNewest(data) : [];
  return (
    <Paper component="section" aria-labelledby={headingId} variant="outlined" sx={{ p: 2 }}>
      <Typography id={headingId} variant="h6" component="h2" gutterBottom>
        {t('game:notice.title')}
      </Typography>
      {error && !data ? (
        <LoadError error={error} onRetry={() => void refetch()} />
      ) : notices.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {t('game:notice.empty')}
        </Typography>
      ) : (
        <Stack
          component="ul"
          spacing={1}
          aria-live="polite"
          // The list scrolls once it is long: focusable, so the keyboard can scroll it too (WCAG 2.1.1).
          tabIndex={0}
          aria-labelledby={headingId}
          sx={{ listStyle: 'none', m: 0, p: 0, maxHeight: 480, overflowY: 'auto' }}
        >
          {notices.map((notice) => (
            <NoticeItem key={notice.id} notice={notice} />
          ))}
        </Stack>
      )}
    </Paper>
  );
}
