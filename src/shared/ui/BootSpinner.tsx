import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';

/**
 * Shown for the moment the app starts (cache restore, first language file). It has no text because
 * translations are not there yet; the busy region tells assistive technology to wait.
 */
export function BootSpinner() {
  return (
    <Box aria-busy="true" sx={{ display: 'flex', justifyContent: 'center', alignItems: 'center', minHeight: '100vh' }}>
      <CircularProgress aria-hidden />
    </Box>
  );
}
