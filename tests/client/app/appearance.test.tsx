import { getContrastRatio, useTheme } from '@mui/material/styles';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { AppearanceButton } from '@/app/layout/AppearanceButton';
import { ColorSchemeToggle } from '@/app/layout/ColorSchemeToggle';
import { createAppTheme, focusRingColor, MODAL_BACKDROP } from '@/app/theme';
import { api as infoApi } from '@/features/info/api';
import { DEFAULT_BRAND_PALETTE, generatePalette } from '@/shared/lib/palette';
import { resolvePrimaryPalette } from '@/shared/theme/primaryPalette';
import { enterText } from '../helpers/enterText';
import { server } from '../msw';
import { renderWithProviders, TEST_CONFIG } from '../helpers/render';

function ThemeProbe() {
  const theme = useTheme();
  return (
    <output data-testid="theme">
      {theme.palette.mode} {theme.palette.primary.main}
    </output>
  );
}

const probe = () => screen.getByTestId('theme').textContent;

describe('the primary palette (spec §4, §5)', () => {
  it('Custom uses a valid #RRGGBB, anything else the brand palette', () => {
    expect(resolvePrimaryPalette({ provider: 'Custom', customColor: '#e64980', managedColor: null })).toEqual(
      generatePalette('#e64980'),
    );
    expect(resolvePrimaryPalette({ provider: 'Custom', customColor: 'pink', managedColor: null })).toBe(
      DEFAULT_BRAND_PALETTE,
    );
  });

  it('Managed uses the server colour only when it is a valid hex colour', () => {
    expect(resolvePrimaryPalette({ provider: 'Managed', customColor: null, managedColor: '#fab005' })).toEqual(
      generatePalette('#fab005'),
    );
    for (const invalid of ['orange', 'javascript:alert(1)', '#12', '', null, undefined]) {
      expect(resolvePrimaryPalette({ provider: 'Managed', customColor: null, managedColor: invalid })).toBe(
        DEFAULT_BRAND_PALETTE,
      );
    }
  });

  it('Default ignores both colours', () => {
    expect(resolvePrimaryPalette({ provider: 'Default', customColor: '#e64980', managedColor: '#fab005' })).toBe(
      DEFAULT_BRAND_PALETTE,
    );
  });
});

describe('the theme', () => {
  it('is dark by default and built from the palette', () => {
    renderWithProviders(<ThemeProbe />);
    expect(probe()).toBe(`dark ${DEFAULT_BRAND_PALETTE[4]}`);
  });

  it('follows the managed colour from /api/config', async () => {
    server.use(
      http.get('http://localhost/api/config', () => HttpResponse.json({ ...TEST_CONFIG, customTheme: '#e64980' })),
    );
    const { store } = renderWithProviders(<ThemeProbe />);
    await act(() => store.dispatch(infoApi.endpoints.infoGetClientConfig.initiate()));
    await waitFor(() => expect(probe()).toBe(`dark ${generatePalette('#e64980')[4]}`));
  });

  it('ignores an invalid managed colour', async () => {
    server.use(
      http.get('http://localhost/api/config', () => HttpResponse.json({ ...TEST_CONFIG, customTheme: 'hotpink' })),
    );
    const { store } = renderWithProviders(<ThemeProbe />);
    await act(() => store.dispatch(infoApi.endpoints.infoGetClientConfig.initiate()));
    expect(probe()).toBe(`dark ${DEFAULT_BRAND_PALETTE[4]}`);
  });

  it('blurs and dims behind every modal, not behind menus (spec §9)', () => {
    const override = createAppTheme('dark').components?.MuiBackdrop?.styleOverrides?.root as (props: {
      ownerState: { invisible?: boolean };
    }) => object;
    expect(override({ ownerState: { invisible: false } })).toEqual({
      backgroundColor: 'rgba(0, 0, 0, 0.5)',
      backdropFilter: 'blur(8px)',
    });
    expect(MODAL_BACKDROP).toEqual({ backgroundColor: 'rgba(0, 0, 0, 0.5)', backdropFilter: 'blur(8px)' });
    expect(override({ ownerState: { invisible: true } })).toEqual({});
  });
});

describe('the focus ring', () => {
  const surfaces = { dark: ['#121417', '#1a1d21'], light: ['#ffffff'] } as const;

  it.each(['dark', 'light'] as const)('stands out 3:1 on the %s pages and cards, for any brand colour', (scheme) => {
    for (const palette of [DEFAULT_BRAND_PALETTE, generatePalette('#fab005'), generatePalette('#1a1b1e')]) {
      const ring = focusRingColor(scheme, palette);
      for (const surface of surfaces[scheme]) expect(getContrastRatio(ring, surface)).toBeGreaterThanOrEqual(3);
    }
  });

  it('falls back to the text colour when the brand shade would be too faint', () => {
    const grey = Array(10).fill('#555555') as unknown as typeof DEFAULT_BRAND_PALETTE;
    expect(focusRingColor('dark', grey)).toBe('#ffffff');
    expect(focusRingColor('light', Array(10).fill('#bbbbbb') as unknown as typeof DEFAULT_BRAND_PALETTE)).toBe(
      '#000000',
    );
  });

  it('is a solid outline on keyboard focus only, unlike the hover overlay', () => {
    const theme = createAppTheme('dark');
    const ring = focusRingColor('dark', DEFAULT_BRAND_PALETTE);
    const buttonBase = theme.components?.MuiButtonBase?.styleOverrides?.root as Record<string, object>;
    expect(buttonBase['&.Mui-focusVisible']).toEqual({ outline: `2px solid ${ring}`, outlineOffset: 2 });
    // Cards fill a clipping container: their ring is drawn inside.
    const card = theme.components?.MuiCardActionArea?.styleOverrides?.root as Record<string, object>;
    expect(card['&.Mui-focusVisible']).toEqual({ outline: `2px solid ${ring}`, outlineOffset: -2 });
  });
});

describe('the colour scheme switch', () => {
  it('toggles light and dark, labelled with what it does', async () => {
    const { store } = renderWithProviders(
      <>
        <ColorSchemeToggle />
        <ThemeProbe />
      </>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Switch to the light colour scheme' }));
    expect(store.getState().preferences.colorScheme).toBe('light');
    expect(probe()).toBe(`light ${DEFAULT_BRAND_PALETTE[6]}`);
    await userEvent.click(screen.getByRole('button', { name: 'Switch to the dark colour scheme' }));
    expect(store.getState().preferences.colorScheme).toBe('dark');
  });
});

describe('the appearance settings', () => {
  async function openDialog() {
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Appearance settings' }));
    await screen.findByRole('dialog', { name: 'Appearance' });
    return user;
  }

  it('does not save an invalid custom colour, and says why', async () => {
    const { store } = renderWithProviders(
      <>
        <AppearanceButton />
        <ThemeProbe />
      </>,
    );
    const user = await openDialog();
    await user.click(screen.getByRole('radio', { name: 'My own colour' }));
    await enterText(screen.getByRole('textbox', { name: 'Colour' }), '#12345g');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText(/followed by six hex digits/)).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Colour' })).toHaveAttribute('aria-invalid', 'true');
    expect(store.getState().preferences).toMatchObject({ themeProvider: 'Managed', customColor: null });
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    expect(probe()).toBe(`dark ${DEFAULT_BRAND_PALETTE[4]}`);
  });

  it('saves a valid custom colour and builds the theme from it', async () => {
    const { store } = renderWithProviders(
      <>
        <AppearanceButton />
        <ThemeProbe />
      </>,
    );
    const user = await openDialog();
    await user.click(screen.getByRole('radio', { name: 'My own colour' }));
    await enterText(screen.getByRole('textbox', { name: 'Colour' }), '#3F8CFF');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(store.getState().preferences).toMatchObject({ themeProvider: 'Custom', customColor: '#3f8cff' });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(probe()).toBe('dark #3f8cff');
  });

  it('switches back to the default palette', async () => {
    const { store } = renderWithProviders(<AppearanceButton />, {
      preloadedState: {
        preferences: { language: 'en-US', colorScheme: 'dark', themeProvider: 'Custom', customColor: '#3f8cff' },
      },
    });
    const user = await openDialog();
    expect(screen.getByRole('radio', { name: 'My own colour' })).toBeChecked();
    // The dialog opens on its first field: the chosen palette, so arrows move the choice at once.
    expect(screen.getByRole('radio', { name: 'My own colour' })).toHaveFocus();
    await user.click(screen.getByRole('radio', { name: 'Default colour' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(store.getState().preferences).toMatchObject({ themeProvider: 'Default', customColor: '#3f8cff' });
  });
});
