import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useClientConfig } from '@/features/info/api';

export default function HomePage() {
  const { config } = useClientConfig();
  return (
    <Stack spacing={1} sx={{ py: 6 }}>
      <Typography variant="h3" component="h1" data-testid="platform-title">
        {config.title}
      </Typography>
      <Typography variant="h6" component="p" color="text.secondary">
        {config.slogan}
      </Typography>
    </Stack>
  );
}
