import CheckIcon from '@mui/icons-material/Check';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Copies `text` to the clipboard; its label says "Copied" for a moment after a click. */
export function CopyButton({ text, label, disabled }: { text: string; label: string; disabled?: boolean }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);
  const shown = copied ? t('team:copied') : label;
  return (
    <Tooltip title={shown}>
      <span>
        <IconButton
          aria-label={shown}
          disabled={disabled}
          onClick={() => {
            void navigator.clipboard?.writeText(text).then(
              () => setCopied(true),
              () => undefined,
            );
          }}
        >
          {copied ? <CheckIcon color="success" /> : <ContentCopyIcon />}
        </IconButton>
      </span>
    </Tooltip>
  );
}
