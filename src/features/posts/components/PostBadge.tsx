import Box from '@mui/material/Box';
import type { ReactNode } from 'react';

/**
 * A small outlined label (a tag, the pinned mark). Plain Box rather than MUI's Chip: these show on
 * the home page, whose script budget Chip's extra weight would break, and they are not interactive.
 */
export function PostBadge({
  children,
  icon,
  accent = false,
}: {
  children: ReactNode;
  icon?: ReactNode;
  accent?: boolean;
}) {
  return (
    <Box
      component="span"
      sx={{
        display: 'inline-flex',
        alignItems: 'center',
        gap: 0.5,
        height: 24,
        px: 1,
        border: 1,
        borderRadius: 12,
        borderColor: accent ? 'primary.main' : 'divider',
        color: accent ? 'primary.main' : 'text.primary',
        typography: 'caption',
        lineHeight: 1,
        whiteSpace: 'nowrap',
        flexShrink: 0,
        '& svg': { fontSize: 16 },
      }}
    >
      {icon}
      {children}
    </Box>
  );
}
