import PushPinOutlined from '@mui/icons-material/PushPinOutlined';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { PostInfoModel } from '../api';
import { PostBadge } from './PostBadge';
import { PostMeta } from './PostMeta';
import { PostTags } from './PostTags';

interface PostCardProps {
  post: PostInfoModel;
  /** Controls beside the title, outside the link (an admin's pin toggle). */
  actions?: ReactNode;
  /** Heading level of the title in the page's outline. */
  headingLevel?: 'h2' | 'h3';
  dense?: boolean;
}

/** One post in a list: title (a link to the post), pinned mark, summary, tags, author and time. */
export function PostCard({ post, actions, headingLevel = 'h2', dense = false }: PostCardProps) {
  const { t } = useTranslation();
  return (
    <Paper
      component="article"
      variant="outlined"
      data-testid="post-card"
      sx={{ position: 'relative', overflow: 'hidden', borderColor: post.isPinned ? 'primary.main' : undefined }}
    >
      {/* The whole card is the link (a Link, not CardActionArea: lighter on the home page's budget). */}
      <Link
        component={RouterLink}
        to={`/posts/${post.id}`}
        underline="none"
        color="inherit"
        sx={{
          display: 'block',
          p: dense ? 1.5 : 2.5,
          pr: actions ? 8 : undefined,
          transition: 'background-color 150ms',
          '&:hover': { bgcolor: 'action.hover' },
          '&:focus-visible': { outline: 2, outlineColor: 'primary.main', outlineOffset: -2 },
        }}
      >
        <Stack spacing={dense ? 0.75 : 1.25}>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', minWidth: 0 }}>
            {post.isPinned && (
              <PostBadge icon={<PushPinOutlined />} accent>
                {t('posts:pinned')}
              </PostBadge>
            )}
            <Typography
              component={headingLevel}
              variant={dense ? 'subtitle1' : 'h6'}
              sx={{ fontWeight: 600, minWidth: 0, wordBreak: 'break-word' }}
            >
              {post.title}
            </Typography>
          </Stack>
          {post.summary && (
            <Typography
              variant="body2"
              color="text.secondary"
              sx={{
                display: '-webkit-box',
                WebkitLineClamp: dense ? 2 : 3,
                WebkitBoxOrient: 'vertical',
                overflow: 'hidden',
                wordBreak: 'break-word',
              }}
            >
              {post.summary}
            </Typography>
          )}
          <PostTags tags={post.tags} />
          <PostMeta post={post} />
        </Stack>
      </Link>
      {actions && <Stack sx={{ position: 'absolute', top: dense ? 6 : 12, right: dense ? 6 : 12 }}>{actions}</Stack>}
    </Paper>
  );
}
