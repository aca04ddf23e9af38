import { useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import ArrowBack from '@mui/icons-material/ArrowBack';
import MailOutline from '@mui/icons-material/MailOutline';
import WhatsApp from '@mui/icons-material/WhatsApp';
import type { ReactNode } from 'react';
import { texts } from '../i18n/ptBR';
import { format } from '../i18n/format';
import { HttpError } from '../providers/httpClient';
import { NameAvatar } from '../common/NameAvatar';
import { ChannelIcon, channelLabel } from '../inbox/ChannelIcon';
import { Loading, RetryAlert } from '../inbox/loadStates';
import { useCustomer } from '../inbox/contact/contactApi';
import { displayNameOf } from '../inbox/contact/displayName';
import { formatDateTime } from '../inbox/contact/formatDate';
import { FixedFields } from '../inbox/contact/FixedFields';
import { CustomProperties } from '../inbox/contact/CustomProperties';
import { MergeSection } from '../inbox/contact/MergeSection';
import type { Customer } from '../inbox/contact/types';
import { NewMessageDialog } from '../inbox/newMessage/NewMessageDialog';
import { EmailStartDialog } from './EmailStartDialog';

const t = texts.contacts;

function Section({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  return (
    <Paper variant="outlined" component="section" aria-label={title} data-testid={testId} sx={{ p: 2, minWidth: 0 }}>
      <Typography component="h2" variant="subtitle1" fontWeight={700} sx={{ mb: 1 }}>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

/** The contact's conversations, one per channel identity, each opening in the inbox. */
function Conversations({ customer }: { customer: Customer }) {
  if (!customer.channels.length) return <Typography color="text.secondary">{t.noConversations}</Typography>;
  return (
    <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0, display: 'flex', flexDirection: 'column', gap: 1 }}>
      {customer.channels.map((c) => (
        <Box component="li" key={c.customerPlatformId} data-testid="contact-conversation" sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap', minWidth: 0 }}>
          <ChannelIcon platformId={c.platformId} size={18} />
          <Box sx={{ flex: 1, minWidth: 160 }}>
            <Link component={RouterLink} to={`/inbox/all/${c.customerPlatformId}`} fontWeight={600} sx={{ overflowWrap: 'anywhere' }}>
              {c.description || channelLabel(c.platformId)}
            </Link>
            <Typography variant="body2" color="text.secondary">
              {c.Call ? `${format(t.protocol, { protocol: String(c.Call.protocol ?? c.Call.id) })} · ${format(t.since, { date: formatDateTime(c.Call.createdAt) })}` : t.conversationNoCall}
            </Typography>
          </Box>
          {c.Call ? <Chip size="small" color={c.Call.isFinished ? 'default' : 'success'} label={c.Call.isFinished ? t.conversationFinished : t.conversationOpen} /> : null}
        </Box>
      ))}
    </Box>
  );
}

/** /contacts/:id (docs/contacts.md): fields, properties, conversations, merge and a new conversation. */
export default function ContactPage() {
  const id = Number(useParams().id);
  const customer = useCustomer(id);
  const [starting, setStarting] = useState(false);
  const [mailing, setMailing] = useState(false);
  const back = (
    <Button component={RouterLink} to="/contacts" startIcon={<ArrowBack />} size="small" sx={{ mb: 1 }}>
      {t.back}
    </Button>
  );
  if (customer.isLoading) return <Loading />;
  if (customer.isError || !customer.data) {
    const missing = customer.error instanceof HttpError && customer.error.status === 404;
    return (
      <Box sx={{ p: { xs: 1.5, sm: 3 } }}>
        {back}
        {missing || !Number.isInteger(id) ? <Typography data-testid="contact-not-found">{t.notFound}</Typography> : <RetryAlert onRetry={() => void customer.refetch()}>{t.loadError}</RetryAlert>}
      </Box>
    );
  }
  const c = customer.data;
  return (
    <Box sx={{ p: { xs: 1.5, sm: 3 }, maxWidth: 1100, mx: 'auto' }} data-testid="contact-page">
      {back}
      <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'center', flexWrap: 'wrap', mb: 2 }}>
        <NameAvatar name={c.name} avatar={c.avatar} size={48} />
        <Typography component="h1" variant="h5" fontWeight={700} sx={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}>
          {displayNameOf(c)}
        </Typography>
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
          <Button variant="contained" startIcon={<WhatsApp />} onClick={() => setStarting(true)} data-testid="contact-start">
            {t.startWhatsapp}
          </Button>
          {c.email ? (
            <Button variant="outlined" startIcon={<MailOutline />} onClick={() => setMailing(true)} data-testid="contact-start-email">
              {t.startEmail}
            </Button>
          ) : null}
        </Box>
      </Box>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 1fr) minmax(0, 1fr)' } }}>
        <Section title={t.details} testId="contact-details">
          <FixedFields customer={c} />
        </Section>
        <Section title={t.properties} testId="contact-properties">
          <CustomProperties customer={c} />
        </Section>
        <Section title={t.conversations} testId="contact-conversations">
          <Conversations customer={c} />
        </Section>
        <Section title={t.merge}>
          <MergeSection customer={c} />
        </Section>
      </Box>
      {mailing && c.email ? <EmailStartDialog customerId={c.id} email={c.email} onClose={() => setMailing(false)} /> : null}
      <NewMessageDialog open={starting} onClose={() => setStarting(false)} initial={{ phone: c.phone, name: c.name }} />
    </Box>
  );
}
