import GroupsOutlined from '@mui/icons-material/GroupsOutlined';
import LoginOutlined from '@mui/icons-material/LoginOutlined';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';

/** What a signed-out visitor sees instead of the teams. */
export function SignInPrompt() {
  const { t } = useTranslation();
  return (
    <Paper
      variant="outlined"
      sx={{ p: { xs: 3, sm: 5 }, textAlign: 'center', maxWidth: 560, width: '100%', alignSelf: 'center' }}
    >
      <GroupsOutlined sx={{ fontSize: 56, color: 'primary.main', mb: 1 }} />
      <Typography variant="h6" component="h2" gutterBottom>
        {t('team:signIn.title')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        {t('team:signIn.message')}
      </Typography>
      <Button
        component={RouterLink}
        to={`/account/login?from=${encodeURIComponent('/teams')}`}
        variant="contained"
        startIcon={<LoginOutlined />}
      >
        {t('team:signIn.action')}
      </Button>
    </Paper>
  );
}
