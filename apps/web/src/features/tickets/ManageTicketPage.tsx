import ManageSearchIcon from '@mui/icons-material/ManageSearch';
import { useTranslation } from 'react-i18next';
import { PageCard } from '../../components/PageCard';
import { TicketDialog, useTicketParam } from './TicketDialog';
import { TicketsTable } from './TicketsTable';

/** Administración ticket (docs/development/screens.md#manage-ticket): every course's tickets, every option editable, attempts deletable. */
export default function ManageTicketPage() {
  const { t } = useTranslation();
  const [openId, setOpenId] = useTicketParam();
  return (
    <PageCard title={t('nav.manageTicket')} icon={<ManageSearchIcon />}>
      <TicketsTable
        defaultStatus="all"
        perPage={10}
        label={t('nav.manageTicket')}
        onOpen={setOpenId}
      />
      <TicketDialog
        ticketId={openId}
        mode="admin"
        onClose={() => setOpenId(null)}
        onOpen={setOpenId}
      />
    </PageCard>
  );
}
