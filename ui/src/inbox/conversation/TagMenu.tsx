import { useState, type KeyboardEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNotify } from 'react-admin';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import ListItemIcon from '@mui/material/ListItemIcon';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Add from '@mui/icons-material/Add';
import { TAG_COLOR_PAIRS } from '../../../../api/tags/colors';
import { api, errorDescriptions } from '../../providers/httpClient';
import { texts } from '../../i18n/ptBR';
import { format } from '../../i18n/format';
import { inboxKeys } from '../queryKeys';
import { TagChips } from '../TagChips';
import type { Tag } from '../types';

const t = texts.inbox.header;

interface Props {
  tags: Tag[];
  applied: Tag[];
  onChange: (tags: Tag[]) => unknown;
}

/**
 * The conversation's tags menu: a field that filters the workspace's tags and, when no tag has that name,
 * offers 'Criar "{nome}"' — every level may create tags (SPEC §6) — which creates it and applies it.
 * Returns the menu's children (MUI's MenuList wants them as a flat list).
 */
export function tagMenuItems({ tags, applied, onChange }: Props, query: string, setQuery: (q: string) => void, create: (name: string) => void, creating: boolean) {
  const ids = new Set(applied.map((x) => x.id));
  const wanted = query.trim();
  const matches = wanted ? tags.filter((tag) => tag.name.toLocaleLowerCase('pt-BR').includes(wanted.toLocaleLowerCase('pt-BR'))) : tags;
  const exact = tags.some((tag) => tag.name.toLocaleLowerCase('pt-BR') === wanted.toLocaleLowerCase('pt-BR'));
  // Letters typed in the field must not move the menu's focus to an item starting with that letter.
  const keepKeys = (e: KeyboardEvent) => {
    if (e.key === 'Enter' && wanted && !exact) {
      e.preventDefault();
      create(wanted);
    }
    if (e.key !== 'Escape' && e.key !== 'ArrowDown' && e.key !== 'Tab') e.stopPropagation();
  };
  return [
    <Box key="search" sx={{ px: 1.5, pt: 0.5, pb: 1 }}>
      <TextField
        size="small"
        fullWidth
        autoFocus
        label={t.tagSearch}
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={keepKeys}
        slotProps={{ htmlInput: { maxLength: 60, 'data-testid': 'tag-search' } }}
      />
    </Box>,
    ...(tags.length === 0 && !wanted ? [<MenuItem key="none" disabled>{t.noTagsAvailable}</MenuItem>] : []),
    ...matches.map((tag) => (
      <MenuItem
        key={tag.id}
        role="menuitemcheckbox"
        aria-checked={ids.has(tag.id)}
        onClick={() => void onChange(ids.has(tag.id) ? applied.filter((x) => x.id !== tag.id) : [...applied, { id: tag.id, name: tag.name, color: tag.color, textColor: tag.textColor }])}
      >
        <Checkbox size="small" checked={ids.has(tag.id)} tabIndex={-1} sx={{ p: 0, mr: 1 }} slotProps={{ input: { 'aria-hidden': true } }} />
        <TagChips tags={[tag]} />
      </MenuItem>
    )),
    ...(wanted && !exact
      ? [
          <MenuItem key="create" disabled={creating} onClick={() => create(wanted)}>
            <ListItemIcon>
              <Add fontSize="small" />
            </ListItemIcon>
            {format(t.createTag, { name: wanted })}
          </MenuItem>,
        ]
      : []),
  ];
}

/** State of the tags menu: the filter text and the creation of a new tag, applied to the conversation at once. */
export function useTagMenu({ tags, applied, onChange }: Props) {
  const [query, setQuery] = useState('');
  const [creating, setCreating] = useState(false);
  const qc = useQueryClient();
  const notify = useNotify();
  const create = (name: string) => {
    if (creating) return;
    setCreating(true);
    const pair = TAG_COLOR_PAIRS[tags.length % TAG_COLOR_PAIRS.length];
    api<Tag>('/label', { method: 'POST', body: { name, color: pair.color, textColor: pair.textColor } })
      .then(async (tag) => {
        qc.setQueryData<Tag[]>(inboxKeys.tags(), (old) => [...(old ?? []), tag]);
        void qc.invalidateQueries({ queryKey: ['settings', '/label'] });
        setQuery('');
        notify(texts.settingsResources.tags.created, { type: 'success' });
        await onChange([...applied, { id: tag.id, name: tag.name, color: tag.color, textColor: tag.textColor }]);
      })
      .catch((err: unknown) => {
        for (const message of errorDescriptions(err)) notify(message, { type: 'error' });
      })
      .finally(() => setCreating(false));
  };
  return { items: () => tagMenuItems({ tags, applied, onChange }, query, setQuery, create, creating), reset: () => setQuery('') };
}
