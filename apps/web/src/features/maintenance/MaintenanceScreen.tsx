import { resourceByKey } from '@sigaf/contract';
import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../../components/StatusPages';
import ResourcePage from './ResourcePage';

/** A maintenance menu entry: the generic screen of its declared resource, else "coming soon". */
export default function MaintenanceScreen({ screenKey }: { screenKey: string }) {
  const { t } = useTranslation();
  return resourceByKey(screenKey) ? (
    <ResourcePage resourceKey={screenKey} />
  ) : (
    <ComingSoon title={t(`nav.${screenKey}`)} />
  );
}
