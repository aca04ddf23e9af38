import { useState } from 'react';
import { useNotify } from 'react-admin';
import { useQueryClient } from '@tanstack/react-query';
import Switch from '@mui/material/Switch';
import { errorDescriptions } from '../../providers/httpClient';
import type { ResourceColumn } from './ResourceList';

/** An active toggle in a list row: moves at once, saves, toasts, and moves back if the save fails. */
function SwitchCell({ checked, label, save, toast, listKey }: { checked: boolean; label: string; save: (value: boolean) => Promise<unknown>; toast: string; listKey: readonly unknown[] }) {
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [value, setValue] = useState(checked);
  const change = async (next: boolean) => {
    setValue(next);
    try {
      await save(next);
      notify(toast, { type: 'success' });
      await queryClient.invalidateQueries({ queryKey: listKey });
    } catch (err) {
      setValue(!next);
      for (const message of errorDescriptions(err)) notify(message, { type: 'error' });
    }
  };
  return <Switch checked={value} onChange={(e) => void change(e.target.checked)} slotProps={{ input: { 'aria-label': label } }} />;
}

/**
 * A list column with the row's active toggle (SPEC §2 Atribuição Automática, Bot). `save` sends the new
 * value (e.g. PUT with `{ isActive }`); the screen's list is refreshed afterwards.
 */
export function switchColumn<Row extends { id: number }>({
  label,
  endpoint,
  checked,
  ariaLabel,
  save,
  toast,
}: {
  label: string;
  /** The screen's endpoint (its list cache key). */
  endpoint: string;
  checked: (row: Row) => boolean;
  ariaLabel: (row: Row) => string;
  save: (row: Row, value: boolean) => Promise<unknown>;
  toast: string;
}): ResourceColumn<Row> {
  return {
    label,
    interactive: true,
    render: (row) => (
      <SwitchCell key={`${row.id}:${String(checked(row))}`} checked={checked(row)} label={ariaLabel(row)} save={(value) => save(row, value)} toast={toast} listKey={['settings', endpoint]} />
    ),
  };
}
