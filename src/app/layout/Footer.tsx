import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { APP_NAME } from '@/shared/appInfo';

// marked + DOMPurify load only when there is footer markdown to show.
const Markdown = lazy(() => import(/* webpackChunkName: "markdown" */ '@/shared/ui/Markdown'));

/** The configured `footerInfo` markdown (sanitised), and what the platform runs on. */
export function Footer({ title, footerInfo }: { title: string; footerInfo?: string | null }) {
  const { t } = useTranslation();
  return (
    <Box component="footer" sx={{ borderTop: 1, borderColor: 'divider', py: 3, mt: 4 }}>
      <Container sx={{ color: 'text.secondary', fontSize: 14 }}>
        {footerInfo && (
          <Suspense fallback={null}>
            <Markdown source={footerInfo} data-testid="footer-info" sx={{ mb: 1 }} />
          </Suspense>
        )}
        <Typography variant="body2" component="p">
          {`${title}::CTF · `}
          <Link component={RouterLink} to="/about" color="inherit">
            {t('common:footer.poweredBy', { name: APP_NAME })}
          </Link>
        </Typography>
      </Container>
    </Box>
  );
}
