import CheckIcon from '@mui/icons-material/Check';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Copies `text` to the clipboard; its label says "Copied" for a moment after a click. */
export function CopyButton({
  text,
  label,
  disabled,
  size = 'small',
}: {
  text: string;
  label: string;
  disabled?: boolean;
  size?: 'small' | 'medium';
}) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);
  const shown = copied ? t('common:copied') : label;
  return (
    <Tooltip title={shown}>
      {/* A disabled button fires no events; the span keeps the tooltip working. */}
      <span>
        <IconButton
          size={size}
          aria-label={shown}
          disabled={disabled}
          onClick={() => {
            void navigator.clipboard?.writeText(text).then(
              () => setCopied(true),
              () => undefined,
            );
          }}
        >
          {copied ? <CheckIcon fontSize={size} color="success" /> : <ContentCopyIcon fontSize={size} />}
        </IconButton>
      </span>
    </Tooltip>
  );
}
