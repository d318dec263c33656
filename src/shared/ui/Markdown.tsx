import Box, { type BoxProps } from '@mui/material/Box';
import DOMPurify from 'dompurify';
import { marked } from 'marked';
import { useMemo } from 'react';

// Links that leave the platform open in a new tab without handing it our window.
DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A' && node.getAttribute('href')) {
    const href = node.getAttribute('href') ?? '';
    if (/^[a-z][a-z0-9+.-]*:/i.test(href) && !href.startsWith(window.location.origin)) {
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer');
    }
  }
});

/**
 * Markdown to safe HTML: marked renders (GitHub flavour), DOMPurify removes scripts, event handlers,
 * `javascript:` and other unsafe URLs, forms, iframes and styles (architecture §6.6).
 */
export function renderMarkdown(source: string): string {
  const html = marked.parse(source, { async: false, gfm: true });
  return DOMPurify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'object', 'embed'],
    FORBID_ATTR: ['style'],
  });
}

export interface MarkdownProps extends Omit<BoxProps, 'children' | 'dangerouslySetInnerHTML'> {
  source: string;
}

/** Renders user or admin markdown, always sanitised. */
export default function Markdown({ source, sx, ...props }: MarkdownProps) {
  const html = useMemo(() => renderMarkdown(source), [source]);
  return (
    <Box
      {...props}
      sx={[
        {
          wordBreak: 'break-word',
          '& a': { color: 'primary.main' },
          '& p': { my: 1 },
          '& img': { maxWidth: '100%' },
          '& pre, & code': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' },
        },
        ...(Array.isArray(sx) ? sx : [sx]),
      ]}
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
