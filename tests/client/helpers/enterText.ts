import userEvent from '@testing-library/user-event';

/**
 * Puts `text` into a field in one input (a click, then a paste), for tests that check what the form
 * does with a value rather than what each key does. Under jsdom every key re-renders the form, and
 * each multiline field in it then measures itself with getComputedStyle, which costs far more CPU
 * than the key itself.
 */
export async function enterText(field: HTMLElement, text: string) {
  await userEvent.click(field);
  await userEvent.paste(text);
}
