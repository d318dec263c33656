import { accessibilitySuite } from './helpers/accessibility';

accessibilitySuite(
  'accessibility in Chromium: axe-core, WCAG 2.1 A and AA, dark theme, staff pages',
  'accessibility-staff.json',
  [
    { name: 'as a monitor, none on the monitor pages', role: 'monitor' },
    { name: 'as an admin, none on the admin and authoring pages', role: 'admin' },
  ],
);
