import type { LoginInput } from '@sigaf/contract';
import { useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import type { LoginCheck, LoginField } from './validation';

/** The rules load once a field gets the focus (the e-mail has it when the screen opens), after the screen has drawn. */
let rules: typeof import('./validation') | null = null;
const loadRules = async () => (rules ??= await import('./validation'));
const preloadRules = () => void loadRules().catch(() => undefined);
const check = async (values: Record<LoginField, string>): Promise<LoginCheck> =>
  (rules ?? (await loadRules())).checkLogin(values);

/**
 * The login form's state, checked as a field is first left and on every change after that
 * (after a submit, on every change), and in full on submit; the submit gets the values as the
 * schema reads them. The login screen keeps the form library out of its first load.
 */
export function useLoginForm(onValid: (values: LoginInput) => unknown) {
  const [values, setValues] = useState<Record<LoginField, string>>({ email: '', password: '' });
  const [errors, setErrors] = useState<LoginCheck['errors']>({});
  const latest = useRef(values);
  const touched = useRef(new Set<LoginField>());
  const submitted = useRef(false);

  const checkField = async (name: LoginField) => {
    const result = await check(latest.current);
    setErrors((prev) => ({ ...prev, [name]: result.errors[name] }));
  };

  const field = (name: LoginField) => ({
    name,
    value: values[name],
    error: Boolean(errors[name]),
    helperText: errors[name],
    onChange: (e: ChangeEvent<HTMLInputElement>) => {
      latest.current = { ...latest.current, [name]: e.target.value };
      setValues(latest.current);
      if (submitted.current || touched.current.has(name)) void checkField(name);
    },
    onFocus: preloadRules,
    onBlur: () => {
      touched.current.add(name);
      if (!submitted.current) void checkField(name);
    },
  });

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    submitted.current = true;
    const result = await check(latest.current);
    setErrors(result.errors);
    if (Object.keys(result.errors).length === 0) await onValid(result.values);
  };

  return { field, onSubmit };
}
