import FileDownloadIcon from '@mui/icons-material/FileDownload';
import { Button, Menu, MenuItem } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** "Exportar" with .xlsx and .csv. */
export function ExportMenu({
  onExport,
  disabled,
}: {
  onExport: (format: 'xlsx' | 'csv') => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <Button
        startIcon={<FileDownloadIcon />}
        onClick={(e) => setAnchor(e.currentTarget)}
        disabled={disabled}
        variant="outlined"
      >
        {t('common.export')}
      </Button>
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        {(['xlsx', 'csv'] as const).map((f) => (
          <MenuItem
            key={f}
            onClick={() => {
              setAnchor(null);
              onExport(f);
            }}
          >
            {t(f === 'xlsx' ? 'common.exportXlsx' : 'common.exportCsv')}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
