import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../../components/StatusPages';

export default function ManageTicketPage() {
  const { t } = useTranslation();
  return <ComingSoon title={t('nav.manageTicket')} />;
}
