import { useState } from 'react';
import { useNavigate } from 'react-router';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import { USER_TYPES } from '../../../../../api/bots/schema';
import { texts } from '../../../i18n/ptBR';
import type { BotDoc } from '../botTypes';
import { useEditor } from './EditorContext';
import { validateDoc } from './draft';
import { firstUnder, MultiSelect, NumberInput, SelectInput, TextInput } from './fields';
import { EditorDialogActions } from './EditorDialogActions';

const t = texts.bots;
const f = t.fields;

type Config = Pick<BotDoc, 'name' | 'isActive' | 'priority' | 'channels' | 'businessHours' | 'userType' | 'expire'>;
const CONFIG_KEYS = ['name', 'isActive', 'priority', 'channels', 'businessHours', 'userType', 'expire'];
const isConfigKey = (key: string) => CONFIG_KEYS.some((k) => key === k || key.startsWith(`${k}.`));

/** /settings/bot/{id}/configuration: name, priority, channels, business hours, contact type and expiry. */
export function ConfigurationDialog() {
  const { doc, update, errors: saved, clearErrors, choices, base } = useEditor();
  const navigate = useNavigate();
  const [value, setValue] = useState<Config>({ name: doc.name, isActive: doc.isActive, priority: doc.priority, channels: doc.channels, businessHours: doc.businessHours, userType: doc.userType, expire: doc.expire });
  const [errors, setErrors] = useState<Record<string, string>>(() => Object.fromEntries(Object.entries(saved).filter(([k]) => isConfigKey(k))));
  const set = <K extends keyof Config>(key: K, v: Config[K]) => setValue((c) => ({ ...c, [key]: v }));
  const setExpire = (patch: Partial<Config['expire']>) => setValue((c) => ({ ...c, expire: { ...c.expire, ...patch } }));
  const close = () => void navigate(base);

  const apply = () => {
    // The whole bot's schema, so these fields are checked exactly as the API checks them.
    const found = Object.fromEntries(Object.entries(validateDoc({ ...doc, ...value })).filter(([k]) => isConfigKey(k)));
    setErrors(found);
    if (Object.keys(found).length) return;
    for (const k of CONFIG_KEYS) clearErrors(k);
    update((d) => ({ ...d, ...value, name: value.name.trim() }));
    close();
  };

  return (
    <Dialog open onClose={close} fullWidth maxWidth="sm" aria-labelledby="bot-config-title">
      <DialogTitle id="bot-config-title">{t.configuration}</DialogTitle>
      <DialogContent>
        <TextInput id="bot-name" label={f.name} required autoFocus value={value.name} onChange={(v) => set('name', v)} error={errors.name} />
        <NumberInput id="bot-priority" label={f.priority} required value={value.priority} onChange={(v) => set('priority', v)} error={errors.priority} helperText={f.priorityHint} />
        <MultiSelect id="bot-channels" label={f.channels} value={value.channels} onChange={(v) => set('channels', v)} choices={choices.channels} error={firstUnder(errors, 'channels')} />
        <MultiSelect id="bot-business-hours" label={f.businessHours} value={value.businessHours} onChange={(v) => set('businessHours', v)} choices={choices.businessHours} error={firstUnder(errors, 'businessHours')} helperText={f.businessHoursHint} />
        <SelectInput id="bot-user-type" label={f.userType} value={value.userType} onChange={(v) => set('userType', v ?? 'all')} options={USER_TYPES.map((u) => ({ value: u, label: f.userTypes[u] }))} error={errors.userType} />
        <FormControlLabel control={<Switch checked={!!value.isActive} onChange={(e) => set('isActive', e.target.checked)} />} label={t.isActive} />
        <FormControlLabel control={<Switch checked={!!value.expire.enabled} onChange={(e) => setExpire({ enabled: e.target.checked })} />} label={f.expireEnabled} />
        {value.expire.enabled ? (
          <>
            <Stack direction="row" spacing={2}>
              <NumberInput id="bot-expire-hours" label={f.hours} value={value.expire.hours} onChange={(v) => setExpire({ hours: v })} error={errors['expire.hours']} />
              <NumberInput id="bot-expire-minutes" label={f.minutes} value={value.expire.minutes} onChange={(v) => setExpire({ minutes: v })} error={errors['expire.minutes']} />
            </Stack>
            <TextInput id="bot-expire-message" label={f.expireMessage} multiline minRows={2} value={value.expire.message} onChange={(v) => setExpire({ message: v })} error={errors['expire.message']} />
          </>
        ) : null}
      </DialogContent>
      <EditorDialogActions onClose={close} onApply={apply} applyLabel={t.apply} />
    </Dialog>
  );
}
