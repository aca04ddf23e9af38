import type { HTMLAttributes, Key } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { NameAvatar } from './NameAvatar';

/**
 * An Autocomplete's `renderOption` for contacts (the contact to merge with, the contact to write to): the
 * avatar, the name and, under it, what `detail` says of the contact.
 */
export function renderCustomerOption<O extends { name: string | null; avatar?: string | null }>(detail: (option: O) => string) {
  return function CustomerOption({ key, ...props }: HTMLAttributes<HTMLLIElement> & { key: Key }, o: O) {
    return (
      <Box component="li" key={key} {...props} sx={{ display: 'flex', gap: 1.5, alignItems: 'center' }}>
        <NameAvatar name={o.name} avatar={o.avatar} size={28} />
        <Box sx={{ minWidth: 0 }}>
          <Typography fontSize={14} noWrap>
            {o.name}
          </Typography>
          <Typography fontSize={12} color="text.secondary" noWrap>
            {detail(o)}
          </Typography>
        </Box>
      </Box>
    );
  };
}
