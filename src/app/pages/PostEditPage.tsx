import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation, useParams } from 'react-router';
import { useSession } from '@/shared/api/session';
import { PostEditor } from '@/features/edit/components/PostEditor';
import { useAnsweredSinceMount } from '@/features/edit/lib/useStoredForm';
import { usePost } from '@/features/posts/api';
import { getErrorMessage, getErrorStatus } from '@/shared/api/errors';
import { PageSpinner } from '@/shared/ui/PageSpinner';

/** The editor's post id for a post that does not exist yet (GZCTF's `/posts/new/edit`). */
const NEW_POST = 'new';

function Notice({
  severity,
  message,
  action,
}: {
  severity: 'info' | 'warning' | 'error';
  message: string;
  action?: ReactNode;
}) {
  return (
    <Stack spacing={2} sx={{ py: { xs: 2, md: 4 }, maxWidth: 560, mx: 'auto', alignItems: 'flex-start' }}>
      <Alert severity={severity} sx={{ width: '100%' }}>
        {message}
      </Alert>
      {action}
    </Stack>
  );
}

/**
 * `/posts/:postId/edit` (admins; `new` creates a post): the stored post (posts feature) in the editor
 * (edit feature). The server checks the role on every write; this gate only spares others a form
 * they cannot save.
 */
export default function PostEditPage() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const { postId = NEW_POST } = useParams();
  const isNew = postId.toLowerCase() === NEW_POST;
  const { signedIn, isAdmin, isLoading: checking, isFetching } = useSession();
  const {
    data: post,
    error,
    isLoading,
    fulfilledTimeStamp,
  } = usePost(postId, { skip: isNew || !isAdmin, fresh: true });
  // The editor starts from the post as stored now: a copy cached by the post page may predate another
  // admin's edit, and saving would put the old text back.
  const fresh = useAnsweredSinceMount(fulfilledTimeStamp);

  if (!signedIn && (checking || isFetching)) return <PageSpinner />;
  if (!signedIn) {
    return (
      <Notice
        severity="info"
        message={t('posts:editor.signIn')}
        action={
          <Button component={RouterLink} to={`/account/login?from=${encodeURIComponent(pathname)}`} variant="contained">
            {t('common:nav.signIn')}
          </Button>
        }
      />
    );
  }
  if (!isAdmin) {
    return (
      <Notice
        severity="warning"
        message={t('posts:editor.notAllowed')}
        action={
          <Button component={RouterLink} to="/posts" variant="outlined">
            {t('posts:allPosts')}
          </Button>
        }
      />
    );
  }
  if (isNew) return <PostEditor post={null} />;
  if (post && fresh) return <PostEditor key={post.id} post={post} />;
  if (isLoading || (post && !error)) return <PageSpinner />;
  return (
    <Notice
      severity={getErrorStatus(error) === 404 ? 'warning' : 'error'}
      message={getErrorStatus(error) === 404 ? t('posts:notFound') : getErrorMessage(t, error)}
      action={
        <Button component={RouterLink} to="/posts" variant="outlined">
          {t('posts:allPosts')}
        </Button>
      }
    />
  );
}
