import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { texts } from '../../i18n/ptBR';
import { format } from '../../i18n/format';
import { ChannelIcon, channelLabel } from '../ChannelIcon';
import { formatDateTime } from './formatDate';
import { SectionList } from './SectionList';
import type { Customer, PanelConversation } from './types';
import { csatLabels } from '../../csat/labels';

const t = texts.inboxPanels.contact;

/** The contact's channels (platform icon + description) with each one's current call. */
export function ChannelsSection({ customer, conversation }: { customer: Customer; conversation?: PanelConversation | null }) {
  return (
    <SectionList component="ul" label={t.channels} empty={t.noChannels}>
      {customer.channels.map((c) => {
        const current = conversation?.id === c.customerPlatformId;
        return (
          <Box component="li" key={c.customerPlatformId} data-testid="contact-channel" aria-current={current ? 'true' : undefined} sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', minWidth: 0 }}>
            <Box sx={{ pt: 0.25 }}>
              <ChannelIcon platformId={c.platformId} size={18} />
            </Box>
            <Box sx={{ flex: 1, minWidth: 0 }}>
              <Typography fontSize={14} noWrap title={c.description ?? undefined}>
                {c.description || channelLabel(c.platformId)}
              </Typography>
              <Typography fontSize={12} color="text.secondary" component="div">
                {c.Call ? (
                  <>
                    {format(t.protocol, { protocol: String(c.Call.protocol ?? c.Call.id) })} · {c.Call.isFinished ? t.finished : t.open}
                  </>
                ) : (
                  t.noCall
                )}
              </Typography>
            </Box>
            {current ? <Chip size="small" color="primary" variant="outlined" label={t.currentConversation} /> : null}
          </Box>
        );
      })}
    </SectionList>
  );
}

/** Every call of the contact, newest first, with protocol numbers and dates. */
export function HistorySection({ customer, conversation }: { customer: Customer; conversation?: PanelConversation | null }) {
  const platformOf = new Map(customer.channels.map((c) => [c.customerPlatformId, c.platformId]));
  const calls = [...customer.calls].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id - a.id);
  return (
    <SectionList component="ol" label={t.history} empty={t.noHistory}>
      {calls.map((call) => {
        const platformId = platformOf.get(call.customerPlatformId);
        const current = conversation?.callId === call.id;
        return (
          <Box component="li" key={call.id} data-testid="contact-call" sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
            <Box sx={{ pt: 0.25, width: 18 }}>{platformId ? <ChannelIcon platformId={platformId} size={16} /> : null}</Box>
            <Box sx={{ flex: 1, minWidth: 0 }}>
              <Typography fontSize={14} fontWeight={current ? 600 : 400}>
                {format(t.protocol, { protocol: String(call.protocol ?? call.id) })}
              </Typography>
              <Typography fontSize={12} color="text.secondary" component="div">
                {format(t.startedAt, { date: formatDateTime(call.createdAt) })}
              </Typography>
              <Typography fontSize={12} color="text.secondary" component="div">
                {call.isFinished && call.finishedAt ? format(t.finishedAt, { date: formatDateTime(call.finishedAt) }) : t.open}
              </Typography>
              {call.csat ? (
                <Typography fontSize={12} color={call.csat.rating ? 'text.primary' : 'text.secondary'} fontWeight={call.csat.rating ? 600 : 400} component="div" data-testid="contact-call-csat">
                  {call.csat.rating ? `★ ${format(csatLabels.history.rated, { rating: String(call.csat.rating) })}` : call.csat.state === 'skipped' ? csatLabels.history.skipped : csatLabels.history.unanswered}
                </Typography>
              ) : null}
            </Box>
          </Box>
        );
      })}
    </SectionList>
  );
}
