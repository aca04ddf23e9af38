import { useState } from 'react';
import { useNavigate } from 'react-router';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import InputBase from '@mui/material/InputBase';
import Search from '@mui/icons-material/Search';
import { shellTexts as texts } from '../i18n/shellTexts';
import { searchPath } from './searchApi';

const t = texts.search;

/** The field fits beside the areas' words, the availability and the user menu from 1440 px on. */
const FIELD_FITS = '@media (min-width:1440px)';

/**
 * The header's search (docs/search.md): a field from 1440 px up, Enter opens /search?q=; below that an
 * icon that opens the search page, whose field takes the focus.
 */

export function HeaderSearch() {
  const navigate = useNavigate();
  const [q, setQ] = useState('');
  return (
    <>
      <IconButton component="a" href="/search" onClick={(e) => { e.preventDefault(); void navigate('/search'); }} aria-label={t.openSearch} sx={{ color: 'inherit', display: 'inline-flex', [FIELD_FITS]: { display: 'none' }, width: 44, height: 44, flexShrink: 0 }}>
        <Search />
      </IconButton>
      <Box
        component="form"
        role="search"
        aria-label={t.openSearch}
        onSubmit={(e) => {
          e.preventDefault();
          if (q.trim()) {
            void navigate(searchPath(q));
            setQ('');
          }
        }}
        sx={{ display: 'none', [FIELD_FITS]: { display: 'flex' }, alignItems: 'center', gap: 0.5, bgcolor: 'rgba(255,255,255,0.16)', borderRadius: 1, px: 1, mx: 1, width: 170, flexShrink: 0 }}
      >
        <Search fontSize="small" aria-hidden />
        <InputBase
          value={q}
          onChange={(e) => setQ(e.target.value)}
          placeholder={t.headerPlaceholder}
          inputProps={{ 'aria-label': t.field, type: 'search', maxLength: 200, enterKeyHint: 'search' }}
          sx={{ color: 'inherit', fontSize: 14, flex: 1, '& input::placeholder': { color: 'inherit', opacity: 0.8 } }}
        />
      </Box>
    </>
  );
}
