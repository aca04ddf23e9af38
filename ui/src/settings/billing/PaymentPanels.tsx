import { useState } from 'react';
import { useNotify } from 'react-admin';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import ContentCopy from '@mui/icons-material/ContentCopy';
import PrintOutlined from '@mui/icons-material/PrintOutlined';
import { texts } from '../../i18n/ptBR';
import { format } from '../../i18n/format';
import type { BoletoPayment, PixPayment } from '../../../../api/billing/provider';
import type { InvoiceDetail } from './billingApi';
import { Barcode } from './Barcode';
import { formatDigitableLine } from './boletoLine';
import { maskDocument } from './document';
import { formatDay, formatDayTime, formatMoney } from './format';
import { PRINT_AREA } from './PrintStyles';
import { PanelIntro } from './parts';

const t = texts.billing.payment;

/** A read-only code with its copy button: 'Copiado para clipboard' (SPEC §8). */
export function CopyCode({ id, label, value, display, multiline }: { id: string; label: string; value: string; display?: string; multiline?: boolean }) {
  const notify = useNotify();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      notify(t.copied, { type: 'success' });
    } catch {
      // Without clipboard access (an http page, a denied permission) the text is selected for a manual copy.
      (document.getElementById(id) as HTMLInputElement | null)?.select();
    }
  };
  return (
    <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1 }}>
      <TextField
        id={id}
        label={label}
        value={display ?? value}
        fullWidth
        size="small"
        multiline={multiline}
        maxRows={multiline ? 4 : undefined}
        slotProps={{ input: { readOnly: true, sx: { fontFamily: 'monospace', fontSize: 14, wordBreak: 'break-all' } } }}
      />
      <IconButton aria-label={format(t.copy, { label })} onClick={() => void copy()} sx={{ mt: 0.25 }}>
        <ContentCopy />
      </IconButton>
    </Box>
  );
}

export function PixPanel({ payment }: { payment: PixPayment }) {
  return (
    <Box data-testid="pix-payment" sx={{ display: 'flex', flexDirection: 'column', gap: 2, alignItems: 'stretch' }}>
      <PanelIntro title={t.pixTitle} help={t.pixHelp} />
      <Box
        component="img"
        src={`data:image/png;base64,${payment.qrPngBase64}`}
        alt={t.qrAlt}
        data-testid="pix-qr"
        sx={{ width: 256, maxWidth: '100%', height: 'auto', alignSelf: 'center', imageRendering: 'pixelated', border: 1, borderColor: 'divider' }}
      />
      <CopyCode id="pix-code" label={t.copyPaste} value={payment.brCode} multiline />
      <Typography variant="body2" color="text.secondary">
        {format(t.validUntil, { date: formatDayTime(payment.expiresAt) })}
      </Typography>
    </Box>
  );
}

/** The printable slip of the test mode's boleto (a provider with its own slip is opened at its slipUrl). */
function BoletoSlip({ payment, detail }: { payment: BoletoPayment; detail: InvoiceDetail }) {
  const cell = { border: 1, borderColor: '#000', p: 1, minWidth: 0 } as const;
  const caption = (text: string) => (
    <Typography variant="caption" component="div" sx={{ color: '#333' }}>
      {text}
    </Typography>
  );
  return (
    <Box className={PRINT_AREA} data-testid="boleto-slip" sx={{ bgcolor: '#fff', color: '#000', p: 2, maxWidth: 760, mx: 'auto' }}>
      <Box sx={{ display: 'flex', justifyContent: 'space-between', flexWrap: 'wrap', gap: 1, borderBottom: 2, borderColor: '#000', pb: 1, mb: 1 }}>
        <Typography fontWeight={700}>{texts.brand}</Typography>
        <Typography sx={{ fontFamily: 'monospace', fontWeight: 700, overflowWrap: 'anywhere' }}>{formatDigitableLine(payment.digitableLine)}</Typography>
      </Box>
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '2fr 1fr' } }}>
        <Box sx={cell}>
          {caption(t.beneficiary)}
          {texts.brand}
        </Box>
        <Box sx={cell}>
          {caption(texts.billing.invoice.dueAt)}
          <strong>{formatDay(payment.dueDate)}</strong>
        </Box>
        <Box sx={cell}>
          {caption(t.payer)}
          {detail.payer ? `${detail.payer.name} — ${maskDocument(detail.payer.document)}` : detail.workspace.name}
        </Box>
        <Box sx={cell}>
          {caption(texts.billing.invoice.amount)}
          <strong>{formatMoney(detail.invoice.amount)}</strong>
        </Box>
        <Box sx={{ ...cell, gridColumn: { sm: '1 / -1' } }}>
          {caption(texts.billing.invoice.order)}
          {detail.invoice.order}
        </Box>
      </Box>
      <Box sx={{ mt: 2 }}>
        <Barcode digits={payment.barcode} label={t.barcode} height={60} />
      </Box>
    </Box>
  );
}

export function BoletoPanel({ payment, detail }: { payment: BoletoPayment; detail: InvoiceDetail }) {
  const [slipOpen, setSlipOpen] = useState(false);
  const print = () => {
    if (payment.slipUrl) window.open(payment.slipUrl, '_blank', 'noopener');
    else setSlipOpen(true);
  };
  return (
    <Box data-testid="boleto-payment" sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <PanelIntro title={t.boletoTitle} help={t.boletoHelp} />
      <CopyCode id="boleto-line" label={t.digitableLine} value={payment.digitableLine} display={formatDigitableLine(payment.digitableLine)} multiline />
      <Box sx={{ overflow: 'hidden' }}>
        <Barcode digits={payment.barcode} label={t.barcode} />
      </Box>
      <Typography fontWeight={600}>{format(t.dueDate, { date: formatDay(payment.dueDate) })}</Typography>
      <Box>
        <Button variant="outlined" startIcon={<PrintOutlined />} onClick={print}>
          {t.printBoleto}
        </Button>
      </Box>
      <Dialog open={slipOpen} onClose={() => setSlipOpen(false)} fullWidth maxWidth="md" aria-labelledby="boleto-slip-title">
        <DialogTitle id="boleto-slip-title" className="billing-no-print">
          {t.slipTitle}
        </DialogTitle>
        <DialogContent>
          <BoletoSlip payment={payment} detail={detail} />
        </DialogContent>
        <DialogActions className="billing-no-print">
          <Button onClick={() => setSlipOpen(false)}>{texts.common.close}</Button>
          <Button variant="contained" startIcon={<PrintOutlined />} onClick={() => window.print()}>
            {t.print}
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}
