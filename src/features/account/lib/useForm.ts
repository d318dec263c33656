import { useCallback, useMemo, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { translateText, type TextRef } from '@/shared/text/textRef';

export type FormErrors<T> = Partial<Record<keyof T, TextRef>>;

/**
 * Text fields with validation: errors show once a field was left or the form was submitted, so
 * nobody is scolded while still typing. `validate` must be stable (module level or memoised).
 */
export function useForm<T extends Record<string, string>>(initial: T, validate: (values: T) => FormErrors<T>) {
  const { t } = useTranslation();
  const [values, setValues] = useState(initial);
  const [touched, setTouched] = useState<Partial<Record<keyof T, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);
  const errors = useMemo(() => validate(values), [validate, values]);

  const errorOf = useCallback(
    (name: keyof T): string | undefined => {
      const error = errors[name];
      return error && (submitted || touched[name]) ? translateText(t, error) : undefined;
    },
    [errors, submitted, t, touched],
  );

  /** Props for a MUI TextField; `hint` shows as helper text while there is no error. */
  const field = (name: keyof T & string, hint?: string) => {
    const error = errorOf(name);
    return {
      name,
      value: values[name],
      onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
        setValues((current) => ({ ...current, [name]: event.target.value })),
      onBlur: () => setTouched((current) => ({ ...current, [name]: true })),
      error: error !== undefined,
      helperText: error ?? hint,
    };
  };

  /** Marks the form submitted (every error shows) and tells whether it may be sent. */
  const check = () => {
    setSubmitted(true);
    return Object.values(errors).every((error) => error === undefined);
  };

  const reset = useCallback((next: T) => {
    setValues(next);
    setTouched({});
    setSubmitted(false);
  }, []);

  return { values, setValues, field, errorOf, check, reset };
}
