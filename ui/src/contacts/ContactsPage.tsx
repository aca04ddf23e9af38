import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { useMutation } from '@tanstack/react-query';
import { useNotify } from 'react-admin';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import FileDownload from '@mui/icons-material/FileDownload';
import FileUpload from '@mui/icons-material/FileUpload';
import { CONTACT_CHANNEL_TYPES, CONTACTS_PAGE_SIZE, type ContactChannelType } from '../../../api/contacts/schema';
// SPEC §2's labels of the service channels, as the contacts report shows them.
import { CHANNEL_LABELS } from '../../../api/reports/schema';
import { texts } from '../i18n/ptBR';
import { format } from '../i18n/format';
import { useSession } from '../providers/session';
import { errorDescriptions, isHttpError } from '../providers/httpClient';
import { useDebounced } from '../common/useDebounced';
import { NameAvatar } from '../common/NameAvatar';
import { CardList, LinkedTable, ListStates, RowLink } from '../common/ListStates';
import { TablePager } from '../common/TablePager';
import { formatDateTime } from '../inbox/contact/formatDate';
import { contactsApi, EMPTY_FILTERS, useContacts, useTags, type ContactFilters, type ContactRow } from './contactsApi';
import { ImportDialog } from './ImportDialog';

const t = texts.contacts;

const contactPath = (row: ContactRow) => `/contacts/${row.id}`;
const nameOf = (c: { name: string | null; phone: string | null; email: string | null }) => c.name || c.phone || c.email || t.noName;

function Channels({ row }: { row: ContactRow }) {
  return (
    <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap' }}>
      {row.channels.map((c) => (
        <Chip key={c.type} size="small" label={c.label} />
      ))}
    </Box>
  );
}

function ContactCard({ row }: { row: ContactRow }) {
  return (
    <Card variant="outlined" component="li" data-testid="contact-row" sx={{ listStyle: 'none' }}>
      <CardActionArea component={RouterLink} to={contactPath(row)} sx={{ p: 1.5, display: 'flex', gap: 1.5, alignItems: 'flex-start', justifyContent: 'flex-start', minHeight: 44 }}>
        <NameAvatar name={row.name} avatar={row.avatar} size={36} />
        <Box sx={{ minWidth: 0, flex: 1 }}>
          <Typography fontWeight={600} sx={{ overflowWrap: 'anywhere' }}>
            {nameOf(row)}
          </Typography>
          {row.phone ? <Typography variant="body2">{row.phone}</Typography> : null}
          {row.email ? (
            <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
              {row.email}
            </Typography>
          ) : null}
          <Box sx={{ mt: 0.5 }}>
            <Channels row={row} />
          </Box>
        </Box>
      </CardActionArea>
    </Card>
  );
}

function ContactTable({ rows }: { rows: ContactRow[] }) {
  return (
    <LinkedTable
      testId="contacts-table"
      rows={rows}
      rowTestId="contact-row"
      linkTo={contactPath}
      columns={[
        {
          header: t.columns.name,
          cell: (row) => (
            <Box sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
              <NameAvatar name={row.name} avatar={row.avatar} size={28} />
              <RowLink to={contactPath(row)}>{nameOf(row)}</RowLink>
            </Box>
          ),
        },
        { header: t.columns.phone, cell: (row) => row.phone ?? '' },
        { header: t.columns.email, cell: (row) => row.email ?? '' },
        { header: t.columns.channels, cell: (row) => <Channels row={row} /> },
        { header: t.columns.createdAt, cell: (row) => formatDateTime(row.createdAt), cellProps: () => ({ sx: { whiteSpace: 'nowrap' } }) },
      ]}
    />
  );
}

/** /contacts (docs/contacts.md): the workspace's contacts with search and filters; import and export at level 6+. */
export default function ContactsPage() {
  const notify = useNotify();
  const canManage = (useSession()?.workspace.accessLevel ?? 0) >= 6;
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const [filters, setFilters] = useState<ContactFilters>(EMPTY_FILTERS);
  const [page, setPage] = useState(0);
  const [importing, setImporting] = useState(false);
  const query = useDebounced(filters.query);
  const applied = { ...filters, query };
  // An 'Até' before the 'De' is told at the field, not sent (the api would refuse it).
  const reversed = Boolean(filters.from && filters.to && filters.to < filters.from);
  const list = useContacts(applied, page, CONTACTS_PAGE_SIZE, !reversed);
  const tags = useTags();
  const set = (patch: Partial<ContactFilters>) => {
    setPage(0);
    setFilters((f) => ({ ...f, ...patch }));
  };
  const exportMail = useMutation({
    mutationFn: () => contactsApi.exportByEmail(applied),
    onSuccess: (email) => notify(format(t.exportSent, { email }), { type: 'success' }),
    onError: (err) => notify(isHttpError(err) && err.status === 400 ? errorDescriptions(err).join(' ') : t.exportError, { type: 'error' }),
  });
  const filtered = JSON.stringify(filters) !== JSON.stringify(EMPTY_FILTERS);
  return (
    <Box sx={{ p: { xs: 1.5, sm: 3 }, maxWidth: 1200, mx: 'auto' }}>
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap', mb: 2 }}>
        <Typography component="h1" variant="h5" fontWeight={700} sx={{ flex: 1 }}>
          {t.title}
        </Typography>
        {canManage ? (
          <>
            <Button variant="outlined" size="small" startIcon={<FileUpload />} onClick={() => setImporting(true)} data-testid="contacts-import">
              {t.import.open}
            </Button>
            <Button variant="outlined" size="small" startIcon={<FileDownload />} onClick={() => exportMail.mutate()} loading={exportMail.isPending} title={t.exportHint} data-testid="contacts-export">
              {t.export}
            </Button>
          </>
        ) : null}
      </Box>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={1.5} sx={{ mb: 2 }} useFlexGap flexWrap="wrap">
        <TextField size="small" type="search" label={t.search} value={filters.query} onChange={(e) => set({ query: e.target.value })} sx={{ minWidth: { md: 280 } }} slotProps={{ htmlInput: { 'data-testid': 'contacts-search' } }} />
        <TextField select size="small" label={t.channel} value={filters.channel} onChange={(e) => set({ channel: e.target.value as ContactChannelType | '' })} sx={{ minWidth: 170 }}>
          <MenuItem value="">{t.allChannels}</MenuItem>
          {CONTACT_CHANNEL_TYPES.map((type) => (
            <MenuItem key={type} value={type}>
              {CHANNEL_LABELS[type]}
            </MenuItem>
          ))}
        </TextField>
        <TextField select size="small" label={t.tag} value={filters.tag} onChange={(e) => set({ tag: e.target.value === '' ? '' : Number(e.target.value) })} sx={{ minWidth: 170 }}>
          <MenuItem value="">{t.allTags}</MenuItem>
          {(tags.data ?? []).map((tag) => (
            <MenuItem key={tag.id} value={tag.id}>
              {tag.name}
            </MenuItem>
          ))}
        </TextField>
        <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
          <Typography component="legend" variant="body2" sx={{ float: 'left', mr: 1 }}>
            {t.createdBetween}
          </Typography>
          <TextField size="small" type="date" label={t.createdFrom} value={filters.from} onChange={(e) => set({ from: e.target.value })} slotProps={{ inputLabel: { shrink: true } }} />
          <TextField
            size="small"
            type="date"
            label={t.createdTo}
            value={filters.to}
            onChange={(e) => set({ to: e.target.value })}
            error={reversed}
            helperText={reversed ? t.createdReversed : undefined}
            slotProps={{ inputLabel: { shrink: true } }}
          />
        </Box>
        {filtered ? (
          <Button size="small" onClick={() => set(EMPTY_FILTERS)}>
            {t.clearFilters}
          </Button>
        ) : null}
      </Stack>
      {reversed ? null : (
      <ListStates list={list} testId="contacts" loadError={t.loadError} empty={t.empty} emptyHelp={filtered ? undefined : t.emptyHelp} count={(n) => (n === 1 ? t.countOne : format(t.count, { count: n }))}>
        {(rows, matchCount) => (
          <>
            {phone ? (
              <CardList testId="contacts-cards">
                {rows.map((row) => (
                  <ContactCard key={row.id} row={row} />
                ))}
              </CardList>
            ) : (
              <ContactTable rows={rows} />
            )}
            <TablePager count={matchCount} page={page} pageSize={CONTACTS_PAGE_SIZE} onPageChange={setPage} />
          </>
        )}
      </ListStates>
      )}
      {importing ? <ImportDialog onClose={() => setImporting(false)} /> : null}
    </Box>
  );
}
