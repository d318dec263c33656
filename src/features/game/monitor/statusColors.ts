import type { PaletteMode } from '@mui/material/styles';

/**
 * Answer statuses in the colours of the operation results (spec §3): the monitor's reading aid. One
 * set per scheme, each at least 4.5:1 against that scheme's pages and papers (WCAG 1.4.3): the
 * statuses are text, in outlined chips.
 */
const STATUS_COLORS: Record<PaletteMode, Record<string, string>> = {
  dark: {
    Accepted: '#51cf66',
    WrongAnswer: '#ff8787',
    CheatDetected: '#ffa94d',
    FlagSubmitted: '#ffd43b',
    NotFound: '#b197fc',
  },
  light: {
    Accepted: '#2f7d3a',
    WrongAnswer: '#c92a2a',
    CheatDetected: '#c2410c',
    FlagSubmitted: '#a85d00',
    NotFound: '#5f3dc4',
  },
};

/** The colour of a status in a scheme; undefined (the chip's own colour) for an unknown one. */
export const statusColor = (status: string, mode: PaletteMode): string | undefined => STATUS_COLORS[mode][status];
