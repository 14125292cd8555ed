import { Box, CircularProgress, Dialog, DialogContent, Typography } from '@mui/material';

/** A blocking "please wait" dialog. */
export function WaitingDialog({ open, message }: { open: boolean; message: string }) {
  return (
    <Dialog open={open} aria-label={message}>
      <DialogContent>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, px: 2, py: 1 }}>
          <CircularProgress size={28} />
          <Typography>{message}</Typography>
        </Box>
      </DialogContent>
    </Dialog>
  );
}
