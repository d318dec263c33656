import Box from '@mui/material/Box';
import Grid from '@mui/material/Grid';
import Paper from '@mui/material/Paper';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { useDeferredValue, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Markdown from '@/shared/ui/Markdown';

export interface MarkdownFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  helperText?: string;
  /** Rows of the source box on wide screens (fewer on narrow ones). */
  rows?: number;
  'data-testid'?: string;
}

/**
 * Markdown source with its sanitised live preview (the shared renderer players see): side by side on
 * wide screens, as Write / Preview tabs on narrow ones.
 */
export function MarkdownField({ label, value, onChange, helperText, rows = 12, ...rest }: MarkdownFieldProps) {
  const { t } = useTranslation();
  const wide = useMediaQuery(useTheme().breakpoints.up('md'));
  const [tab, setTab] = useState<'write' | 'preview'>('write');
  const tabsId = useId();
  // Typing stays fluid on long texts: the preview may trail a keystroke behind.
  const preview = useDeferredValue(value);
  const previewLabel = t('edit:markdown.previewOf', { label });

  const source = (
    <TextField
      label={label}
      helperText={helperText}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      multiline
      minRows={wide ? rows : Math.max(4, Math.round(rows * 0.7))}
      fullWidth
      slotProps={{
        htmlInput: {
          spellCheck: true,
          style: { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', fontSize: 14 },
        },
      }}
    />
  );
  const rendered = (
    <Paper
      variant="outlined"
      role="region"
      aria-label={previewLabel}
      sx={{ p: 2, height: '100%', minHeight: 120, overflow: 'auto', bgcolor: 'background.default' }}
    >
      {preview.trim() ? (
        <Markdown source={preview} data-testid={rest['data-testid']} />
      ) : (
        <Typography color="text.secondary">{t('edit:markdown.empty')}</Typography>
      )}
    </Paper>
  );

  if (wide) {
    return (
      <Grid container spacing={2}>
        <Grid size={6}>{source}</Grid>
        <Grid size={6}>{rendered}</Grid>
      </Grid>
    );
  }
  return (
    <Box>
      <Tabs value={tab} onChange={(_event, next: 'write' | 'preview') => setTab(next)} aria-label={label}>
        <Tab value="write" label={t('edit:markdown.write')} id={`${tabsId}-write`} aria-controls={`${tabsId}-panel`} />
        <Tab
          value="preview"
          label={t('edit:markdown.preview')}
          id={`${tabsId}-preview`}
          aria-controls={`${tabsId}-panel`}
        />
      </Tabs>
      <Box id={`${tabsId}-panel`} role="tabpanel" aria-labelledby={`${tabsId}-${tab}`} sx={{ pt: 2 }}>
        {tab === 'write' ? source : rendered}
      </Box>
    </Box>
  );
}
