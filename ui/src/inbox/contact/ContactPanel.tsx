import type { ReactNode } from 'react';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import ExpandMore from '@mui/icons-material/ExpandMore';
import { texts } from '../../i18n/ptBR';
import { HttpError } from '../../providers/httpClient';
import { NameAvatar } from '../../common/NameAvatar';
import { displayNameOf } from './displayName';
import { ChannelsSection, HistorySection } from './ChannelsSection';
import { useCustomer } from './contactApi';
import { CustomProperties } from './CustomProperties';
import { FixedFields } from './FixedFields';
import { MediaGrid } from './MediaGrid';
import { MergeSection } from './MergeSection';
import type { Customer, PanelConversation } from './types';
import { Loading, RetryAlert } from '../loadStates';

const t = texts.inboxPanels.contact;

export interface ContactPanelProps {
  customerId: number;
  /** The open conversation: its channel and call are marked in the lists. */
  conversation?: PanelConversation | null;
}

function Section({ id, title, defaultExpanded = false, children }: { id: string; title: string; defaultExpanded?: boolean; children: ReactNode }) {
  return (
    <Accordion
      disableGutters
      elevation={0}
      square
      defaultExpanded={defaultExpanded}
      // Closed sections mount nothing, so the media grid asks for its files only when opened.
      slotProps={{ transition: { unmountOnExit: true } }}
      sx={{ borderBottom: 1, borderColor: 'divider', '&::before': { display: 'none' } }}
    >
      <AccordionSummary expandIcon={<ExpandMore />} id={`contact-${id}-header`} aria-controls={`contact-${id}-content`} sx={{ minHeight: 40, px: 2 }}>
        <Typography component="h3" fontSize={14} fontWeight={600}>
          {title}
        </Typography>
      </AccordionSummary>
      <AccordionDetails id={`contact-${id}-content`} sx={{ px: 2, pt: 0, pb: 1.5 }}>
        {children}
      </AccordionDetails>
    </Accordion>
  );
}

/** SPEC §2 right panel 'Contato': properties, channels, history, media and merge. */
export function ContactPanel({ customerId, conversation }: ContactPanelProps) {
  const customer = useCustomer(customerId);
  return (
    <Box component="section" aria-label={t.title} data-testid="contact-panel" sx={{ height: '100%', overflowY: 'auto', bgcolor: 'background.paper' }}>
      {customer.isLoading ? (
        <Loading />
      ) : customer.isError || !customer.data ? (
        <Box sx={{ p: 2 }}>
          <RetryAlert severity={customer.error instanceof HttpError && customer.error.status === 404 ? 'info' : 'error'} onRetry={customer.refetch}>
            {customer.error instanceof HttpError && customer.error.status === 404 ? t.notFound : t.loadError}
          </RetryAlert>
        </Box>
      ) : (
        <ContactDetails customer={customer.data} conversation={conversation} />
      )}
    </Box>
  );
}

function ContactDetails({ customer, conversation }: { customer: Customer; conversation?: PanelConversation | null }) {
  return (
    <>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, px: 2, py: 2, borderBottom: 1, borderColor: 'divider' }}>
        <NameAvatar name={displayNameOf(customer)} avatar={customer.avatar} size={44} />
        <Box sx={{ minWidth: 0 }}>
          {/* Wraps rather than ends in '…': the panel is narrow, and a phone has no hover to show the title. */}
          <Typography component="h2" fontWeight={700} sx={{ overflowWrap: 'anywhere' }}>
            {displayNameOf(customer)}
          </Typography>
          {customer.phone || customer.email ? (
            <Typography fontSize={13} color="text.secondary" noWrap>
              {customer.phone || customer.email}
            </Typography>
          ) : null}
        </Box>
      </Box>
      <Section id="properties" title={t.properties} defaultExpanded>
        <FixedFields customer={customer} />
        <CustomProperties customer={customer} />
      </Section>
      <Section id="channels" title={t.channels} defaultExpanded>
        <ChannelsSection customer={customer} conversation={conversation} />
      </Section>
      <Section id="history" title={t.history}>
        <HistorySection customer={customer} conversation={conversation} />
      </Section>
      <Section id="media" title={t.media}>
        <MediaGrid customerId={customer.id} />
      </Section>
      <Section id="merge" title={t.merge}>
        <MergeSection customer={customer} />
      </Section>
    </>
  );
}
