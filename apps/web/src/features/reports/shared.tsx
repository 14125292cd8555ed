import AssessmentIcon from '@mui/icons-material/Assessment';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdf';
import { Box, Button, CircularProgress, Paper, Typography } from '@mui/material';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CourseSelector, type CourseOption } from '../../components/CourseSelector';
import { useNotify } from '../../components/Snackbar';
import { ApiError } from '../../lib/api';
import { useCurrentCourse } from '../../lib/rememberedCourse';

/** The course chosen on any report screen. */
export const useReportCourse = useCurrentCourse;

export function CourseBar({
  course,
  onChange,
}: {
  course: CourseOption | null;
  onChange: (c: CourseOption | null) => void;
}) {
  return (
    <Paper variant="outlined" sx={{ p: 2, mb: 2, bgcolor: 'grey.50' }}>
      <CourseSelector value={course} onChange={onChange} />
    </Paper>
  );
}

export function ChooseCourse() {
  const { t } = useTranslation();
  return (
    <Box sx={{ textAlign: 'center', py: 8, color: 'text.secondary' }}>
      <AssessmentIcon sx={{ fontSize: 56, opacity: 0.4 }} />
      <Typography variant="h6" sx={{ mt: 1 }}>
        {t('reports.chooseCourse')}
      </Typography>
    </Box>
  );
}

/** A button that downloads a file, with a spinner meanwhile and the server's message on failure. */
export function DownloadButton({
  kind,
  label,
  run,
  disabled,
}: {
  kind: 'xlsx' | 'pdf';
  label: string;
  run: () => Promise<void>;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const click = async () => {
    setBusy(true);
    try {
      await run();
    } catch (err) {
      notify(err instanceof ApiError ? err.message : t('common.error'), 'error');
    } finally {
      setBusy(false);
    }
  };
  const icon: ReactNode = busy ? (
    <CircularProgress size={18} />
  ) : kind === 'pdf' ? (
    <PictureAsPdfIcon />
  ) : (
    <FileDownloadIcon />
  );
  return (
    <Button
      variant={kind === 'pdf' ? 'outlined' : 'contained'}
      startIcon={icon}
      onClick={() => void click()}
      disabled={busy || disabled}
    >
      {label}
    </Button>
  );
}
