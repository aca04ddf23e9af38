import { useState, type KeyboardEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import Add from '@mui/icons-material/Add';
import CheckCircle from '@mui/icons-material/CheckCircle';
import Remove from '@mui/icons-material/Remove';
import { texts } from '../../i18n/ptBR';
import { format } from '../../i18n/format';
import type { PlanInfo, PlansInfo, PurchasableLicense, UnitKey } from './billingApi';
import { formatMoney } from './format';
import { countText } from './parts';

const t = texts.billing.change;

/** 'Plano personalizado' (SPEC §2 modals): the two phones and the e-mail of GET /payment/plans' contact. */
export function ContactDialog({ open, onClose, contact }: { open: boolean; onClose: () => void; contact: PlansInfo['contact'] }) {
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby="custom-plan-title" fullWidth maxWidth="xs">
      <DialogTitle id="custom-plan-title">{t.custom}</DialogTitle>
      <DialogContent>
        <Typography sx={{ mb: 2 }}>{t.contactText}</Typography>
        <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1 }}>
          {contact.phones.map((phone) => (
            <li key={phone}>
              {t.phone}:{' '}
              <Link href={`tel:${phone.replace(/[^\d+]/g, '')}`} data-testid="contact-phone">
                {phone}
              </Link>
            </li>
          ))}
          <li>
            {t.email}:{' '}
            <Link href={`mailto:${contact.email}`} data-testid="contact-email">
              {contact.email}
            </Link>
          </li>
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{texts.common.close}</Button>
      </DialogActions>
    </Dialog>
  );
}

function PlanCard({ plan, selected, current, onSelect }: { plan: PlanInfo; selected: boolean; current: boolean; onSelect: () => void }) {
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      onSelect();
    }
  };
  return (
    <Paper
      variant="outlined"
      role="radio"
      aria-checked={selected}
      aria-label={`${plan.name}, ${formatMoney(plan.price)} ${t.perMonth}`}
      tabIndex={0}
      onClick={onSelect}
      onKeyDown={onKey}
      data-testid={`plan-${plan.license}`}
      sx={{
        p: 2,
        cursor: 'pointer',
        borderWidth: 2,
        borderColor: selected ? 'primary.main' : 'divider',
        bgcolor: selected ? 'action.selected' : 'background.paper',
        display: 'flex',
        flexDirection: 'column',
        gap: 0.5,
        minWidth: 0,
      }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <Typography fontWeight={700} sx={{ flex: 1 }}>
          {plan.name}
        </Typography>
        {selected ? <CheckCircle color="primary" fontSize="small" aria-hidden /> : null}
      </Box>
      <Typography variant="h6" component="p">
        {formatMoney(plan.price)}
        <Typography component="span" variant="body2" color="text.secondary">
          {' '}
          {t.perMonth}
        </Typography>
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {countText(plan.included.agents, t.includes.agents)}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {countText(plan.included.whatsapp, t.includes.whatsapp)}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {plan.included.campaign > 0 ? countText(plan.included.campaign, t.includes.campaign) : t.noCampaigns}
      </Typography>
      {current ? <Chip size="small" label={t.current} sx={{ alignSelf: 'flex-start', mt: 0.5 }} /> : null}
    </Paper>
  );
}

/** Basic, Business and Enterprise as a radio group, and the custom plan that opens the contact dialog. */
export function PlanPicker({
  info,
  value,
  currentLicense,
  onChange,
}: {
  info: PlansInfo;
  value: PurchasableLicense;
  currentLicense: string | undefined;
  onChange: (license: PurchasableLicense) => void;
}) {
  const [contactOpen, setContactOpen] = useState(false);
  return (
    <>
      <Box role="radiogroup" aria-label={t.plansLabel} sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 180px), 1fr))', gap: 1.5 }}>
        {info.plans.map((plan) => (
          <PlanCard key={plan.license} plan={plan} selected={plan.license === value} current={plan.license === currentLicense} onSelect={() => onChange(plan.license)} />
        ))}
        <Paper variant="outlined" sx={{ p: 2, borderWidth: 2, borderStyle: 'dashed', display: 'flex', flexDirection: 'column', gap: 1, minWidth: 0 }}>
          <Typography fontWeight={700}>{t.custom}</Typography>
          <Typography variant="body2" color="text.secondary" sx={{ flex: 1 }}>
            {t.customText}
          </Typography>
          <Button variant="outlined" size="small" onClick={() => setContactOpen(true)} aria-haspopup="dialog">
            {t.contact}
          </Button>
        </Paper>
      </Box>
      <ContactDialog open={contactOpen} onClose={() => setContactOpen(false)} contact={info.contact} />
    </>
  );
}

/**
 * One add-on: how many beyond the plan (agents, lines, campaigns), or the Instagram units (no price, none
 * included). The quote's refusal for the unit (below usage, below the plan) shows under it.
 */
export function UnitStepper({
  unit,
  value,
  included,
  price,
  error,
  onChange,
}: {
  unit: UnitKey;
  value: number;
  included: number;
  price: number;
  error?: string;
  onChange: (value: number) => void;
}) {
  const name = t.extra[unit];
  const max = 999 - included;
  const set = (n: number) => onChange(Math.max(0, Math.min(max, Number.isFinite(n) ? Math.trunc(n) : 0)));
  const id = `extra-${unit}`;
  const helper = error ?? (unit === 'instagram' ? t.noPrice : `${format(t.extraPrice, { price: formatMoney(price) })} · ${format(t.extraTotal, { total: included + value })}`);
  return (
    <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1 }}>
      <IconButton aria-label={format(t.decrease, { name })} onClick={() => set(value - 1)} disabled={value <= 0} sx={{ mt: 1 }}>
        <Remove />
      </IconButton>
      <TextField
        id={id}
        label={name}
        value={String(value)}
        onChange={(e) => set(Number(e.target.value.replace(/\D/g, '') || 0))}
        error={Boolean(error)}
        helperText={helper}
        size="small"
        fullWidth
        slotProps={{ htmlInput: { inputMode: 'numeric', 'data-testid': id, 'aria-describedby': `${id}-helper-text` }, formHelperText: { id: `${id}-helper-text` } }}
      />
      <IconButton aria-label={format(t.increase, { name })} onClick={() => set(value + 1)} disabled={value >= max} sx={{ mt: 1 }}>
        <Add />
      </IconButton>
    </Box>
  );
}
