import AccessTime from '@mui/icons-material/AccessTime';
import Check from '@mui/icons-material/Check';
import DoneAll from '@mui/icons-material/DoneAll';
import { texts } from '../../i18n/ptBR';
import { MessageStatus } from '../constants';

const t = texts.inbox.status;

/** SPEC §4 delivery status: clock, check, double check, double check in green when read. */
export function StatusIcon({ status, pending }: { status: number; pending?: boolean }) {
  const common = { 'data-status': pending ? 0 : status, sx: { fontSize: 15, verticalAlign: 'middle' } };
  if (pending || status <= MessageStatus.SENT) return <AccessTime {...common} titleAccess={pending ? t.sending : t.sent} />;
  if (status === MessageStatus.RECEIVED) return <Check {...common} titleAccess={t.received} />;
  if (status === MessageStatus.DELIVERED) return <DoneAll {...common} titleAccess={t.delivered} />;
  return <DoneAll {...common} titleAccess={t.read} sx={{ ...common.sx, color: '#22c55e' }} />;
}
