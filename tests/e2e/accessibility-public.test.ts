import { accessibilitySuite } from './helpers/accessibility';

accessibilitySuite(
  'accessibility in Chromium: axe-core, WCAG 2.1 A and AA, dark theme, public pages',
  'accessibility-public.json',
  [
    { name: 'signed out, no serious or critical violation on any page', role: 'signedOut' },
    { name: 'as a player, none on the game pages and dialogs', role: 'player' },
  ],
);
