import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../../components/StatusPages';

export default function BlockingTicketPage() {
  const { t } = useTranslation();
  return <ComingSoon title={t('nav.blockingTicket')} />;
}
