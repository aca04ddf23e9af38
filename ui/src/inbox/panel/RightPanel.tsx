import { Suspense, useState } from 'react';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { texts } from '../../i18n/ptBR';
import { ContactPanel } from '../lazyParts';
import type { Conversation } from '../types';
import { PluginPanel } from '../plugins/PluginPanel';

const t = texts.inbox.panel;

/** SPEC §2 right side panel: 'Contato' (contact/ContactPanel) or plugins (plugins/PluginPanel). */
export function RightPanel({ conversation, width }: { conversation: Conversation; width: number }) {
  const [tab, setTab] = useState<'contact' | 'plugins'>('contact');
  return (
    <Box component="aside" aria-label={t.label} data-testid="right-panel" sx={{ width, flexShrink: 0, borderLeft: 1, borderColor: 'divider', bgcolor: 'background.paper', display: 'flex', flexDirection: 'column', minHeight: 0 }}>
      <Tabs value={tab} onChange={(_, v: 'contact' | 'plugins') => setTab(v)} variant="fullWidth" sx={{ borderBottom: 1, borderColor: 'divider', minHeight: 44 }}>
        <Tab value="contact" label={t.contact} id="panel-tab-contact" aria-controls="panel-contact" sx={{ minHeight: 44 }} />
        <Tab value="plugins" label={t.plugins} id="panel-tab-plugins" aria-controls="panel-plugins" sx={{ minHeight: 44 }} />
      </Tabs>
      <Box role="tabpanel" id={`panel-${tab}`} aria-labelledby={`panel-tab-${tab}`} sx={{ flex: 1, overflowY: 'auto', minHeight: 0 }}>
        {tab === 'contact' ? (
          <Suspense fallback={<Box sx={{ display: 'flex', justifyContent: 'center', p: 3 }}><CircularProgress size={22} aria-label={texts.common.loading} /></Box>}>
              <ContactPanel key={conversation.customerId} customerId={conversation.customerId} conversation={conversation} />
          </Suspense>
        ) : (
          <PluginPanel conversation={conversation} />
        )}
      </Box>
    </Box>
  );
}
