import SupervisorAccountIcon from '@mui/icons-material/SupervisorAccount';
import { PERMISSIONS, type RoleKey } from '@sigaf/contract';
import { lazy, type ComponentType, type LazyExoticComponent, type ReactElement } from 'react';
import type { Row } from './api';

/**
 * Extra row actions of a maintenance screen, declared per resource key: an icon in the row's
 * actions that opens a dialog of another feature (loaded on demand). The generic screen shows
 * them to the roles given; everything else about the resource stays declared in the contract.
 */
export interface RowAction {
  key: string;
  /** i18n key of the action's label. */
  label: string;
  icon: ReactElement;
  roles: readonly RoleKey[];
  Dialog: LazyExoticComponent<ComponentType<{ row: Row; onClose: () => void }>>;
}

export const ROW_ACTIONS: Record<string, RowAction[]> = {
  // Aula: the tutors who follow the classroom (student follow-up).
  classroom: [
    {
      key: 'tutors',
      label: 'followUp.tutors.action',
      icon: <SupervisorAccountIcon />,
      roles: PERMISSIONS.configurationWrite,
      Dialog: lazy(() => import('../follow-up/ClassroomTutorsDialog')),
    },
  ],
};
