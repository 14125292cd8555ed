import type { SvgIconComponent } from '@mui/icons-material';
import AssessmentIcon from '@mui/icons-material/Assessment';
import ConfirmationNumberIcon from '@mui/icons-material/ConfirmationNumber';
import EventNoteIcon from '@mui/icons-material/EventNote';
import GroupsIcon from '@mui/icons-material/Groups';
import InsightsIcon from '@mui/icons-material/Insights';
import TrendingUpIcon from '@mui/icons-material/TrendingUp';

/**
 * Icons of the flat menu entries. A module of its own so the layout (loaded with the signed-in
 * application) does not import the screen table that loads it.
 */
export const SCREEN_ICONS: Record<string, SvgIconComponent> = {
  agenda: EventNoteIcon,
  dashboard: InsightsIcon,
  effectiveness: TrendingUpIcon,
  followUp: GroupsIcon,
  ticket: ConfirmationNumberIcon,
  ticketReport: AssessmentIcon,
};
