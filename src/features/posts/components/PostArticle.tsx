import ArrowBackOutlined from '@mui/icons-material/ArrowBackOutlined';
import PushPinOutlined from '@mui/icons-material/PushPinOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { getErrorMessage, getErrorStatus } from '@/shared/api/errors';
import Markdown from '@/shared/ui/Markdown';
import { usePost } from '../api';
import { PostBadge } from './PostBadge';
import { PostMeta } from './PostMeta';
import { PostTags } from './PostTags';

/** One post: title, author and time, tags, and the markdown content rendered sanitised. */
export function PostArticle({ postId, actions }: { postId: string; actions?: ReactNode }) {
  const { t } = useTranslation();
  const { data: post, isLoading, error, refetch } = usePost(postId);

  const back = (
    <Button component={RouterLink} to="/posts" startIcon={<ArrowBackOutlined />} sx={{ alignSelf: 'flex-start' }}>
      {t('posts:allPosts')}
    </Button>
  );

  let body: ReactNode;
  if (post) {
    body = (
      <Paper component="article" variant="outlined" sx={{ p: { xs: 2.5, md: 4 } }}>
        <Stack spacing={2}>
          <Stack direction="row" spacing={2} sx={{ alignItems: 'flex-start', justifyContent: 'space-between' }}>
            <Typography variant="h4" component="h1" sx={{ fontWeight: 700, wordBreak: 'break-word' }}>
              {post.title}
            </Typography>
            {actions}
          </Stack>
          <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
            {post.isPinned && (
              <PostBadge icon={<PushPinOutlined />} accent>
                {t('posts:pinned')}
              </PostBadge>
            )}
            <PostMeta post={post} size="medium" />
          </Stack>
          <PostTags tags={post.tags} />
          {post.summary && (
            <Typography color="text.secondary" sx={{ fontStyle: 'italic' }}>
              {post.summary}
            </Typography>
          )}
          <Divider />
          <Markdown source={post.content} data-testid="post-content" sx={{ typography: 'body1', lineHeight: 1.7 }} />
        </Stack>
      </Paper>
    );
  } else if (isLoading) {
    body = (
      <Paper variant="outlined" sx={{ p: { xs: 2.5, md: 4 } }} aria-busy="true" aria-label={t('common:loading')}>
        <Skeleton variant="text" sx={{ fontSize: '2.5rem' }} width="60%" />
        <Skeleton variant="text" width="40%" />
        <Skeleton variant="rounded" height={200} sx={{ mt: 2 }} />
      </Paper>
    );
  } else if (getErrorStatus(error) === 404) {
    body = <Alert severity="warning">{t('posts:notFound')}</Alert>;
  } else {
    body = (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => void refetch()}>
            {t('posts:retry')}
          </Button>
        }
      >
        {getErrorMessage(t, error)}
      </Alert>
    );
  }

  return (
    <Stack spacing={2} sx={{ py: { xs: 1, md: 3 }, maxWidth: 960, mx: 'auto', width: '100%' }}>
      {back}
      {body}
    </Stack>
  );
}
