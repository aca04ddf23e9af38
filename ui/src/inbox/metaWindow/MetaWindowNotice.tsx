import Alert from '@mui/material/Alert';
import { texts } from '../../i18n/ptBR';
import { format } from '../../i18n/format';
import { formatDateTime } from '../contact/formatDate';
import type { MetaWindow } from './useMetaWindow';

const t = texts.metaWindow;
const PLATFORM_NAME: Record<MetaWindow['platform'], string> = { facebook: 'Messenger', instagram: 'Instagram' };

export const META_WINDOW_HELP_ID = 'composer-window-help';

/** The sentence(s) the composer shows for a Messenger/Instagram window that is not simply open. */
export function metaWindowText(w: MetaWindow): string {
  const platform = PLATFORM_NAME[w.platform];
  if (w.kind === 'human_agent') return format(t.humanAgent, { platform, date: formatDateTime(w.closesAt) });
  if (w.kind !== 'closed') return '';
  if (!w.lastCustomerMessageAt) return `${format(t.neverWrote, { platform })} ${t.notesStillOpen}`;
  const why = format(w.humanAgentTag ? t.closedAfterHumanAgent : t.closed, { platform });
  return `${why} ${format(t.lastCustomerMessage, { date: formatDateTime(w.lastCustomerMessageAt) })} ${t.notesStillOpen}`;
}

/**
 * Above the reply box of a Messenger/Instagram conversation: why it is disabled (window closed), or until
 * when replies go with the HUMAN_AGENT tag. Nothing while the 24-hour window is open.
 */
export function MetaWindowNotice({ metaWindow }: { metaWindow: MetaWindow }) {
  const text = metaWindowText(metaWindow);
  if (!text) return null;
  return (
    <Alert id={META_WINDOW_HELP_ID} data-testid="meta-window" severity={metaWindow.kind === 'closed' ? 'warning' : 'info'} sx={{ mb: 1, py: 0, fontSize: 13 }}>
      {text}
    </Alert>
  );
}
