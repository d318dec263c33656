import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '@/shared/api/session';
import { useClientConfig } from '@/features/info/api';
import { LatestPosts } from '@/features/posts/components/LatestPosts';

// Admins only: the pin toggle (and the edit feature's endpoints behind it) stays out of everyone
// else's home page load.
const PostPinButton = lazy(() =>
  import(/* webpackChunkName: "post-pin" */ '@/features/edit/components/PostPinButton').then((module) => ({
    default: module.PostPinButton,
  })),
);

// Its own chunk, fetched after the first paint: the game feature's API stays out of the entry.
const RecentGames = lazy(() => import(/* webpackChunkName: "recent-games" */ '@/features/game/components/RecentGames'));

/** A titled home-page section. */
function HomeSection({ title, children }: { title: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <Paper component="section" aria-labelledby={headingId} variant="outlined" sx={{ p: 2, height: '100%' }}>
      <Typography variant="h6" component="h2" id={headingId} gutterBottom>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

/**
 * Home: the platform's title and slogan, then two slots: the latest posts (pinned first; admins can
 * pin and unpin), and the recent games (game feature).
 */
export default function HomePage() {
  const { t } = useTranslation();
  const { config } = useClientConfig();
  const { isAdmin } = useSession();
  return (
    <Stack spacing={4} sx={{ py: { xs: 2, md: 4 } }}>
      <Stack spacing={1}>
        <Typography
          variant="h3"
          component="h1"
          data-testid="platform-title"
          sx={{ fontWeight: 700, fontSize: { xs: '2.25rem', sm: '3rem' }, wordBreak: 'break-word' }}
        >
          {config.title}
          <Typography component="span" variant="inherit" color="primary">
            ::CTF
          </Typography>
        </Typography>
        <Typography variant="h6" component="p" color="text.secondary">
          {config.slogan}
        </Typography>
      </Stack>
      {/* CSS grid rather than MUI's Grid: the same layout without its 2 KB on the home page. */}
      <Box
        sx={{
          display: 'grid',
          gap: 3,
          gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 7fr) minmax(0, 5fr)' },
        }}
      >
        <HomeSection title={t('common:home.latestPosts')}>
          <LatestPosts
            renderActions={
              isAdmin
                ? (post) => (
                    <Suspense fallback={null}>
                      <PostPinButton post={post} />
                    </Suspense>
                  )
                : undefined
            }
          />
        </HomeSection>
        <HomeSection title={t('common:home.recentGames')}>
          <Suspense fallback={null}>
            <RecentGames />
          </Suspense>
        </HomeSection>
      </Box>
    </Stack>
  );
}
