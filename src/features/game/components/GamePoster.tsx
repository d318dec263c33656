import Box from '@mui/material/Box';
import type { SxProps, Theme } from '@mui/material/styles';

/**
 * The game's poster, or a quiet banner with the title's initial when it has none (or it fails to
 * load). Decorative: the title is always written next to it.
 */
export function GamePoster({ poster, title, sx }: { poster?: string | null; title: string; sx?: SxProps<Theme> }) {
  return (
    <Box
      aria-hidden
      sx={[
        {
          position: 'relative',
          overflow: 'hidden',
          aspectRatio: '16 / 9',
          display: 'grid',
          placeItems: 'center',
          background: (theme) =>
            `linear-gradient(135deg, ${theme.palette.primary.dark}, ${theme.palette.secondary.dark})`,
          color: 'common.white',
          fontSize: 48,
          fontWeight: 700,
        },
        ...(Array.isArray(sx) ? sx : [sx]),
      ]}
    >
      {title.slice(0, 1).toUpperCase()}
      {poster && (
        <Box
          component="img"
          src={poster}
          alt=""
          onError={(event) => {
            event.currentTarget.style.display = 'none';
          }}
          sx={{ position: 'absolute', inset: 0, width: '100%', height: '100%', objectFit: 'cover' }}
        />
      )}
    </Box>
  );
}
