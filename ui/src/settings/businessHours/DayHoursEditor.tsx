import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import Add from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import type { DaySchedule, HourRange, WeekDay } from '../../../../api/models/BusinessHours';
import { SLOTS_PER_DAY } from '../../../../api/businessHours/week';
import { slotLabel } from '../../../../api/businessHours/schedule';
import { texts } from '../../i18n/ptBR';
import { nextRange, withStart } from './rangeRules';

const t = texts.businessHours;
const SLOTS = Array.from({ length: SLOTS_PER_DAY + 1 }, (_, i) => i);

/** A time of day to choose among `slots` (15-minute slot indexes shown as 08:15); `name` is its accessible name. */
function SlotSelect({ label, name, value, slots, disabled, onChange }: { label: string; name: string; value: number; slots: number[]; disabled?: boolean; onChange: (slot: number) => void }) {
  return (
    <TextField
      select
      size="small"
      label={label}
      value={value}
      disabled={disabled}
      onChange={(e) => onChange(Number(e.target.value))}
      sx={{ width: 120 }}
      slotProps={{ htmlInput: { 'aria-label': name } }}
    >
      {slots.map((s) => (
        <MenuItem key={s} value={s}>
          {slotLabel(s)}
        </MenuItem>
      ))}
    </TextField>
  );
}

/** One weekday: open toggle ('Fechado o dia todo' when off) and its 15-minute ranges. */
export function DayHoursEditor({ day, value, error, disabled, onChange }: { day: WeekDay; value: DaySchedule; error?: string; disabled?: boolean; onChange: (next: DaySchedule) => void }) {
  const label = t.days[day];
  const setRange = (i: number, range: HourRange) => onChange({ ...value, hours: value.hours.map((h, j) => (j === i ? range : h)) });
  const added = nextRange(value.hours);
  return (
    <Box component="fieldset" aria-label={label} sx={{ border: 0, p: 0, m: 0, py: 1.5, borderBottom: 1, borderColor: 'divider' }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
        <Typography component="legend" fontWeight={600} sx={{ width: 140, float: 'left' }}>
          {label}
        </Typography>
        <FormControlLabel
          control={<Switch checked={value.active} disabled={disabled} onChange={(e) => onChange({ ...value, active: e.target.checked })} slotProps={{ input: { 'aria-label': `${label}: ${t.active}` } }} />}
          label={value.active ? t.active : t.closedAllDay}
        />
      </Box>
      {value.active ? (
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1, mt: 1 }}>
          {value.hours.map((range, i) => (
            <Box key={i} sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
              <SlotSelect label={t.start} name={`${label} ${t.start} ${i + 1}`} value={range.startHourIndex} slots={SLOTS.slice(0, SLOTS_PER_DAY)} disabled={disabled} onChange={(slot) => setRange(i, withStart(range, slot))} />
              <SlotSelect label={t.end} name={`${label} ${t.end} ${i + 1}`} value={range.endHourIndex} slots={SLOTS.filter((s) => s > range.startHourIndex)} disabled={disabled} onChange={(slot) => setRange(i, { ...range, endHourIndex: slot })} />
              <IconButton aria-label={`${t.removeRange} ${i + 1}`} disabled={disabled} onClick={() => onChange({ ...value, hours: value.hours.filter((_, j) => j !== i) })}>
                <DeleteOutline fontSize="small" />
              </IconButton>
            </Box>
          ))}
          <Box>
            <Button size="small" startIcon={<Add />} disabled={disabled || !added} onClick={() => added && onChange({ ...value, hours: [...value.hours, added] })}>
              {t.addRange}
            </Button>
          </Box>
        </Box>
      ) : null}
      {error ? <FormHelperText error>{error}</FormHelperText> : null}
    </Box>
  );
}
