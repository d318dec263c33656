import Box from '@mui/material/Box';
import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { VISUALLY_HIDDEN } from '@/shared/ui/visuallyHidden';

/** How long a page may take to show its heading (code and data load first) before we stop waiting. */
export const HEADING_WAIT_MS = 10_000;

/** Whether focus is still where navigation left it: the user has not moved on meanwhile. */
function untouched(main: HTMLElement): boolean {
  const active = document.activeElement;
  return !active || active === document.body || active === main;
}

/**
 * Focus that follows the user across routes (WCAG 2.4.3): after every path change, but not on the
 * first load, focus moves to the new page's main heading (the first `h1` in the main region) and its
 * text is announced through a polite live region, so keyboard and screen-reader users start on the
 * new page instead of on `<body>` or on a link that no longer exists. Pages load their code and data
 * first, so the main region takes focus at once and the heading takes it over when it appears;
 * a page with no heading leaves focus on the main region. Query-only changes (filters, paging) keep
 * focus where it is.
 */
export function RouteFocus({ mainId }: { mainId: string }) {
  const { pathname } = useLocation();
  const shown = useRef(pathname);
  // A counter in the key makes the same title, announced twice in a row, a fresh announcement.
  const [announcement, setAnnouncement] = useState({ text: '', count: 0 });

  useEffect(() => {
    if (shown.current === pathname) return;
    shown.current = pathname;
    const main = document.getElementById(mainId);
    if (!main) return;
    // The link just followed may be gone with the old page: without this, focus falls to <body>.
    main.focus({ preventScroll: true });
    const announce = (text: string) => setAnnouncement((last) => ({ text, count: last.count + 1 }));

    const land = (): boolean => {
      const heading = main.querySelector<HTMLElement>('h1');
      if (!heading) return false;
      if (untouched(main)) {
        if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1;
        heading.focus();
      }
      announce(heading.textContent?.trim() || document.title);
      return true;
    };
    if (land()) return;
    const observer = new MutationObserver(() => {
      if (land()) stop();
    });
    observer.observe(main, { childList: true, subtree: true });
    const timer = setTimeout(() => {
      stop();
      announce(document.title);
    }, HEADING_WAIT_MS);
    function stop() {
      observer.disconnect();
      clearTimeout(timer);
    }
    return stop;
  }, [pathname, mainId]);

  return (
    // A bare live region, not role="status": that role belongs to the pages' own status lines.
    <Box aria-live="polite" aria-atomic sx={VISUALLY_HIDDEN} data-testid="route-announcer">
      <span key={announcement.count}>{announcement.text}</span>
    </Box>
  );
}
