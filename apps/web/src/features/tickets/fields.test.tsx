import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import i18next from 'i18next';
import { useForm } from 'react-hook-form';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import es from '../../i18n/tickets.es.json';
import { AttemptFields, TicketOptionFields } from './fields';
import { attemptRequired, emptyAttempt, type FormValues } from './schemas';

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.use(initReactI18next).init({ lng: 'es', resources: { es: { translation: es } } });
});

function Attempt({ required }: { required: boolean }) {
  const { control } = useForm<FormValues>({ defaultValues: emptyAttempt });
  return <AttemptFields control={control} required={required} />;
}

/** How many fields are marked "*" (MUI's asterisk on a required label). */
const stars = (required: boolean) =>
  renderToStaticMarkup(
    <QueryClientProvider client={new QueryClient()}>
      <I18nextProvider i18n={i18n}>
        <Attempt required={required} />
      </I18nextProvider>
    </QueryClientProvider>,
  ).match(/MuiInputLabel-asterisk/g)?.length ?? 0;

describe('the attempt of a worked ticket', () => {
  const initial: FormValues = { status_ticket_id: 1, priority_ticket_id: 2, user_assigned_id: 3 };

  it('closing (status changed, attempt empty): optional, so neither field shows "*"', () => {
    expect(attemptRequired({ ...initial, ...emptyAttempt, status_ticket_id: 4 }, initial)).toBe(
      false,
    );
    expect(stars(false)).toBe(0);
  });

  it('nothing changed, or half an attempt typed: both fields required and marked', () => {
    expect(attemptRequired({ ...initial, ...emptyAttempt }, initial)).toBe(true);
    expect(attemptRequired({ ...initial, status_ticket_id: 4, comment: 'Cerrado' }, initial)).toBe(
      true,
    );
    expect(stars(true)).toBe(2);
  });
});

describe("the ticket's Origen", () => {
  function Source() {
    const { control } = useForm<FormValues>({ defaultValues: { source_ticket_id: '' } });
    return <TicketOptionFields control={control} fields={['source_ticket_id']} />;
  }

  it('says under the field that the medium and direction of a contact go in the attempt', () => {
    const html = renderToStaticMarkup(
      <QueryClientProvider client={new QueryClient()}>
        <I18nextProvider i18n={i18n}>
          <Source />
        </I18nextProvider>
      </QueryClientProvider>,
    );
    expect(html).toContain('Origen');
    expect(html).toContain(es.tickets.options.sourceHint);
  });
});
