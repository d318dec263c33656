import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import Toolbar from '@mui/material/Toolbar';
import { Link as RouterLink, Outlet } from 'react-router';
import { useClientConfig } from '@/features/info/api';

export function AppLayout() {
  const { config } = useClientConfig();
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
      <AppBar position="sticky" color="default" elevation={1}>
        <Toolbar>
          <Link component={RouterLink} to="/" underline="none" color="inherit" variant="h6" sx={{ fontWeight: 700 }}>
            {config.title}
            <Box component="span" sx={{ color: 'primary.main' }}>
              ::CTF
            </Box>
          </Link>
        </Toolbar>
      </AppBar>
      <Container component="main" sx={{ flex: 1, py: 3 }}>
        <Outlet />
      </Container>
    </Box>
  );
}
