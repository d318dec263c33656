import { useParams } from 'react-router';
import { useSession } from '@/shared/api/session';
import { EditPostButton } from '@/features/edit/components/EditPostButton';
import { PostArticle } from '@/features/posts/components/PostArticle';

/** `/posts/:postId`: one post; admins get a link to its editor. */
export default function PostPage() {
  const { postId = '' } = useParams();
  const { isAdmin } = useSession();
  return <PostArticle postId={postId} actions={isAdmin ? <EditPostButton postId={postId} /> : undefined} />;
}
