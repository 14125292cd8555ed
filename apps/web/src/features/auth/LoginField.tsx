import { FormControl, FormHelperText, InputLabel, OutlinedInput } from '@mui/material';
import { forwardRef, useId, type FocusEventHandler, type ChangeEventHandler } from 'react';

interface Props {
  name: string;
  value: string;
  label: string;
  type: 'email' | 'password';
  autoComplete: string;
  autoFocus?: boolean;
  error: boolean;
  disabled?: boolean;
  helperText?: string;
  onChange: ChangeEventHandler<HTMLInputElement>;
  onBlur: FocusEventHandler<HTMLInputElement>;
  onFocus?: FocusEventHandler<HTMLInputElement>;
}

/**
 * An outlined text field of the login form, drawn as the theme's TextField (same label, outline,
 * helper text and ids) from its parts, so the login screen does not load the select inputs a
 * TextField brings along.
 */
export const LoginField = forwardRef<HTMLDivElement, Props>(function LoginField(
  { label, error, disabled = false, helperText, autoFocus = false, ...input },
  ref,
) {
  const id = useId();
  const helperTextId = helperText ? `${id}-helper-text` : undefined;
  return (
    <FormControl
      ref={ref}
      className="MuiTextField-root"
      error={error}
      disabled={disabled}
      fullWidth
      variant="outlined"
    >
      <InputLabel htmlFor={id} id={`${id}-label`}>
        {label}
      </InputLabel>
      <OutlinedInput
        {...input}
        id={id}
        label={label}
        autoFocus={autoFocus}
        fullWidth
        aria-describedby={helperTextId}
      />
      {helperText && <FormHelperText id={helperTextId}>{helperText}</FormHelperText>}
    </FormControl>
  );
});
