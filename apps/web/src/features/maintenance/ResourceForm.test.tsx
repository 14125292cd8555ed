import { FORM_MSG, resourceBodySchema, resourceByKey } from '@sigaf/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import i18next from 'i18next';
import { useForm } from 'react-hook-form';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import es from '../../i18n/es.json';
import { DeclaredField } from './ResourceForm';
import { TemporaryPasswordNotice } from './TemporaryPassword';

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.use(initReactI18next).init({
    lng: 'es',
    resources: { es: { translation: es } },
    interpolation: { escapeValue: false },
  });
});

const wrap = (node: React.ReactNode) =>
  renderToStaticMarkup(
    <QueryClientProvider client={new QueryClient()}>
      <I18nextProvider i18n={i18n}>{node}</I18nextProvider>
    </QueryClientProvider>,
  );

const category = resourceByKey('category')!;
const code = category.fields.find((f) => f.name === 'category_code')!;

function CodeField({ value }: { value: string }) {
  const { control } = useForm<Record<string, unknown>>({ defaultValues: { category_code: value } });
  return <DeclaredField f={code} control={control} label="Código" editing={false} />;
}

describe('a declared field with a length limit', () => {
  it('the category code is not cut at 4 as it is typed: its hint counts against the limit', () => {
    const html = wrap(<CodeField value="SENCE26" />);
    expect(html).not.toMatch(/maxlength/i);
    expect(html).toContain('value="SENCE26"');
    expect(html).toContain('7 de 4 caracteres');
    expect(wrap(<CodeField value="" />)).toContain('0 de 4 caracteres');
  });

  it('a longer code gets the Spanish error the server gives, not a silent cut', () => {
    const res = resourceBodySchema(category, 'create').safeParse({
      description: 'SENCE 2026',
      category_code: 'SENCE26',
      platform_id: 1,
      status: 1,
    });
    expect(res.success).toBe(false);
    expect(res.error!.issues.find((i) => i.path[0] === 'category_code')?.message).toBe(
      FORM_MSG.max(4),
    );
  });
});

describe('the temporary password', () => {
  it('shows the password alone with a button that copies it', () => {
    const html = wrap(
      <TemporaryPasswordNotice secret={{ name: 'Ana', password: 'k3Y-9pQz' }} onCopy={() => {}} />,
    );
    expect(html).toContain('>k3Y-9pQz</code>');
    expect(html).toMatch(/<button[^>]*>.*Copiar contraseña<\/button>/);
  });
});
