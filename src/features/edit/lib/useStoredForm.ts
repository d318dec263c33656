import { useCallback, useMemo, useState } from 'react';

/** Form values are plain data (text, switches, lists), so their JSON tells whether two are the same. */
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

interface State<F> {
  /** The stored record as a form, as last seen. */
  stored: F;
  /** Values that count as untouched: the stored ones, or the last ones saved. */
  clean: F;
  /** What the form shows. */
  form: F;
}

/**
 * A form over a stored record that keeps reloading underneath it: after a save, a poster upload or a
 * flag change, and on the way in (the page refetches on mount, see `useAnsweredSinceMount`).
 *
 * - While the form is untouched, a newer stored copy replaces it, so saving never sends back values
 *   someone else has changed meanwhile.
 * - Once the admin has changed something, reloads leave the form alone: their edits are not
 *   overwritten.
 */
export function useStoredForm<S, F>(stored: S, toForm: (stored: S) => F) {
  const latest = useMemo(() => toForm(stored), [stored, toForm]);
  const [state, setState] = useState<State<F>>(() => ({ stored: latest, clean: latest, form: latest }));
  let current = state;
  // Adjusted while rendering (React's "storing information from previous renders"), so a reload never
  // shows a frame of the old values; it settles at once, since the new state has seen `latest`.
  if (!same(latest, state.stored)) {
    const untouched = same(state.form, state.clean) || same(state.form, latest);
    current = { stored: latest, clean: latest, form: untouched ? latest : state.form };
    setState(current);
  }
  const setForm = useCallback(
    (update: (previous: F) => F) => setState((previous) => ({ ...previous, form: update(previous.form) })),
    [],
  );
  /**
   * After a successful save of `saved`: the reload that follows holds it, perhaps as the server tidied
   * it (trimmed text), and replaces the form unless typing went on meanwhile.
   */
  const markSaved = useCallback((saved: F) => setState((previous) => ({ ...previous, clean: saved })), []);
  return { form: current.form, setForm, markSaved };
}

/**
 * Whether a query (asked with `refetchOnMountOrArgChange`) has answered since the component mounted:
 * an older cached answer (say, the game frame's, loaded when the admin entered the game) may predate
 * changes made elsewhere, and a form started from it would save them away. Key the component by the
 * query's argument, so that another record counts from when it was opened too.
 */
export function useAnsweredSinceMount(fulfilledTimeStamp: number | undefined): boolean {
  const [mountedAt] = useState(() => Date.now());
  return fulfilledTimeStamp !== undefined && fulfilledTimeStamp >= mountedAt;
}
