import ArrowForwardOutlined from '@mui/icons-material/ArrowForwardOutlined';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useLatestPosts, type PostInfoModel } from '../api';
import { PostCard } from './PostCard';
import { PostListState } from './PostListState';

/** How many of the latest posts the home page shows; the rest are a click away. */
export const HOME_POSTS = 5;

/** The home page's latest posts (`GET /api/posts/latest`), pinned first, with a link to all of them. */
export function LatestPosts({ renderActions }: { renderActions?: (post: PostInfoModel) => ReactNode }) {
  const { t } = useTranslation();
  const { posts, isLoading, error, refetch } = useLatestPosts();
  if (!posts?.length)
    return <PostListState isLoading={isLoading} error={error} onRetry={() => void refetch()} rows={2} />;
  return (
    <Stack spacing={1.5}>
      {posts.slice(0, HOME_POSTS).map((post) => (
        <PostCard key={post.id} post={post} actions={renderActions?.(post)} headingLevel="h3" dense />
      ))}
      <Button component={RouterLink} to="/posts" endIcon={<ArrowForwardOutlined />} sx={{ alignSelf: 'flex-end' }}>
        {t('posts:allPosts')}
      </Button>
    </Stack>
  );
}
