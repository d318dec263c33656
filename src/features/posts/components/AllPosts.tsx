import Pagination from '@mui/material/Pagination';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { usePosts, type PostInfoModel } from '../api';
import { PostCard } from './PostCard';
import { PostListState } from './PostListState';

export const POSTS_PER_PAGE = 10;

interface AllPostsProps {
  /** Beside the heading (an admin's "new post"). */
  toolbar?: ReactNode;
  /** Per post, beside its title (an admin's pin toggle). */
  renderActions?: (post: PostInfoModel) => ReactNode;
}

/** The posts page's content: every post, pinned first, ten per page (the page is in `?page=`). */
export function AllPosts({ toolbar, renderActions }: AllPostsProps) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const { posts, isLoading, error, refetch } = usePosts();
  const pages = Math.max(1, Math.ceil((posts?.length ?? 0) / POSTS_PER_PAGE));
  const page = Math.min(pages, Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1));
  const shown = posts?.slice((page - 1) * POSTS_PER_PAGE, page * POSTS_PER_PAGE);

  return (
    <Stack spacing={3} sx={{ py: { xs: 1, md: 3 } }}>
      <Stack
        direction="row"
        spacing={2}
        sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', rowGap: 1 }}
      >
        <Stack spacing={0.5}>
          <Typography variant="h4" component="h1" sx={{ fontWeight: 700 }}>
            {t('posts:title')}
          </Typography>
          <Typography color="text.secondary">{t('posts:subtitle')}</Typography>
        </Stack>
        {toolbar}
      </Stack>
      {shown?.length ? (
        <Stack spacing={2}>
          {shown.map((post) => (
            <PostCard key={post.id} post={post} actions={renderActions?.(post)} />
          ))}
        </Stack>
      ) : (
        <PostListState isLoading={isLoading} error={error} onRetry={() => void refetch()} />
      )}
      {pages > 1 && (
        <Pagination
          count={pages}
          page={page}
          onChange={(_event, next) => setParams(next === 1 ? {} : { page: String(next) })}
          sx={{ alignSelf: 'center' }}
          getItemAriaLabel={(type, item) =>
            type === 'page' ? t('posts:pagination.page', { page: item ?? 0 }) : t(`posts:pagination.${type}`)
          }
        />
      )}
    </Stack>
  );
}
