import { zodResolver } from '@hookform/resolvers/zod';
import { loginSchema, type LoginInput } from '@sigaf/contract';

export type LoginField = 'email' | 'password';
export interface LoginCheck {
  /** The values as the schema reads them (trimmed); meaningful when there are no errors. */
  values: LoginInput;
  /** The first message of each field that fails. */
  errors: Partial<Record<LoginField, string>>;
}

const resolver = zodResolver(loginSchema);

/** The login form's rules: the contract's schema, read as the form library reads it. */
export async function checkLogin(values: Record<LoginField, string>): Promise<LoginCheck> {
  const result = await resolver(values, undefined, {
    fields: {},
    shouldUseNativeValidation: false,
    criteriaMode: 'firstError',
  });
  const errors: LoginCheck['errors'] = {};
  for (const name of ['email', 'password'] as const) {
    const message = result.errors[name]?.message;
    if (typeof message === 'string') errors[name] = message;
  }
  return { values: result.values as LoginInput, errors };
}
