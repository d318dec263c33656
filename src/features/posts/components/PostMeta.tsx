import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { PostInfoModel } from '../api';
import { formatDateTime } from '@/shared/lib/dateTime';

/**
 * Author (avatar and name) and the time of the last update. A post without an author (its author's
 * account was deleted) shows only the time: "by unknown" tells the reader nothing.
 */
export function PostMeta({ post, size = 'small' }: { post: PostInfoModel; size?: 'small' | 'medium' }) {
  const { t, i18n } = useTranslation();
  const author = post.authorName;
  const avatarSize = size === 'small' ? 24 : 32;
  const iso = new Date(post.time).toISOString();
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', minWidth: 0, color: 'text.secondary' }}>
      {/* Decorative (the name follows), and a plain box rather than MUI's Avatar: the home page shows
          it within its script budget. A broken picture leaves the initial underneath visible. */}
      {author && (
        <Box
          aria-hidden
          sx={{
            position: 'relative',
            flexShrink: 0,
            width: avatarSize,
            height: avatarSize,
            borderRadius: '50%',
            overflow: 'hidden',
            display: 'grid',
            placeItems: 'center',
            bgcolor: 'action.selected',
            color: 'text.primary',
            fontSize: avatarSize * 0.5,
          }}
        >
          {author.slice(0, 1).toUpperCase()}
          {post.authorAvatar && (
            <Box
              component="img"
              src={post.authorAvatar}
              alt=""
              onError={(event) => {
                event.currentTarget.style.display = 'none';
              }}
              sx={{ position: 'absolute', inset: 0, width: '100%', height: '100%', objectFit: 'cover' }}
            />
          )}
        </Box>
      )}
      <Typography variant="body2" noWrap sx={{ minWidth: 0 }}>
        {author && (
          <>
            {t('posts:byAuthor', { author })}
            {' · '}
          </>
        )}
        <time dateTime={iso} title={iso}>
          {formatDateTime(post.time, i18n.language, 'medium')}
        </time>
      </Typography>
    </Stack>
  );
}
