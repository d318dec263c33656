import { useSession } from '@/shared/api/session';
import { NewPostButton } from '@/features/edit/components/NewPostButton';
import { PostPinButton } from '@/features/edit/components/PostPinButton';
import { AllPosts } from '@/features/posts/components/AllPosts';

/**
 * `/posts`: every post (posts feature); admins also get "new post" and pin toggles (edit feature).
 * The page composes the two here because features never import each other.
 */
export default function PostsPage() {
  const { isAdmin } = useSession();
  return (
    <AllPosts
      toolbar={isAdmin ? <NewPostButton /> : undefined}
      renderActions={isAdmin ? (post) => <PostPinButton post={post} /> : undefined}
    />
  );
}
