import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { LanguageMenu } from '@/app/layout/LanguageMenu';
import { renderWithProviders } from '../helpers/render';

async function openMenu() {
  const user = userEvent.setup();
  const button = screen.getByRole('button', { name: 'Language' });
  await user.click(button);
  await screen.findByRole('menu');
  return user;
}

describe('the language switcher', () => {
  it('is a labelled button reachable from the keyboard', async () => {
    renderWithProviders(<LanguageMenu />);
    const user = userEvent.setup();
    await user.tab();
    const button = screen.getByRole('button', { name: 'Language' });
    expect(button).toHaveFocus();
    expect(button).toHaveAttribute('aria-haspopup', 'menu');
    await user.keyboard('{Enter}');
    const menu = await screen.findByRole('menu');
    expect(screen.getAllByRole('menuitem')).toHaveLength(11);
    expect(menu).toBeVisible();
  });

  it('lists the 11 languages by their own names, marking the machine-translated ones', async () => {
    renderWithProviders(<LanguageMenu />);
    await openMenu();
    const names = screen.getAllByRole('menuitem').map((item) => item.textContent);
    expect(names).toEqual([
      'English',
      '简体中文',
      '繁體中文',
      '日本語',
      'Bahasa Indonesia',
      '한국어',
      'Русский',
      'Tiếng Việt',
      'DeutschMachine translated',
      'FrançaisMachine translated',
      'EspañolMachine translated',
    ]);
  });

  it('switches straight to a human-translated language and sets the document language', async () => {
    const { store, i18n } = renderWithProviders(<LanguageMenu />);
    const user = await openMenu();
    await user.click(screen.getByRole('menuitem', { name: '日本語' }));
    expect(store.getState().preferences.language).toBe('ja-JP');
    await waitFor(() => expect(i18n.language).toBe('ja-JP'));
    expect(document.documentElement.lang).toBe('ja-JP');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: '言語' })).toBeInTheDocument();
  });

  it('asks to confirm fr-FR, in French; cancelling switches back to English', async () => {
    const { store } = renderWithProviders(<LanguageMenu />);
    const user = await openMenu();
    await user.click(screen.getByRole('menuitem', { name: /Français/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Langue traduite automatiquement' });
    expect(dialog).toHaveTextContent('traduite automatiquement');
    expect(store.getState().preferences.language).toBe('fr-FR');
    expect(document.documentElement.lang).toBe('fr-FR');
    await user.click(screen.getByRole('button', { name: 'Revenir à l’anglais' }));
    expect(store.getState().preferences.language).toBe('en-US');
    await waitFor(() => expect(document.documentElement.lang).toBe('en-US'));
    expect(await screen.findByRole('button', { name: 'Language' })).toBeInTheDocument();
  });

  it('keeps a machine-translated language when confirmed', async () => {
    const { store } = renderWithProviders(<LanguageMenu />);
    const user = await openMenu();
    await user.click(screen.getByRole('menuitem', { name: /Deutsch/ }));
    await user.click(await screen.findByRole('button', { name: 'Sprache beibehalten' }));
    expect(store.getState().preferences.language).toBe('de-DE');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('treats Escape on the notice as cancel', async () => {
    const { store } = renderWithProviders(<LanguageMenu />);
    const user = await openMenu();
    await user.click(screen.getByRole('menuitem', { name: /Español/ }));
    await screen.findByRole('dialog');
    await user.keyboard('{Escape}');
    expect(store.getState().preferences.language).toBe('en-US');
  });
});
