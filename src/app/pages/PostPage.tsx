import { useParams } from 'react-router';
import { useProfile } from '@/features/account/api';
import { EditPostButton } from '@/features/edit/components/EditPostButton';
import { PostArticle } from '@/features/posts/components/PostArticle';

/** `/posts/:postId`: one post; admins get a link to its editor. */
export default function PostPage() {
  const { postId = '' } = useParams();
  const { isAdmin } = useProfile();
  return <PostArticle postId={postId} actions={isAdmin ? <EditPostButton postId={postId} /> : undefined} />;
}
