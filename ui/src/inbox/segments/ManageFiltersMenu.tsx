import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { shellTexts as texts } from '../../i18n/shellTexts';

const t = texts.inbox;

/** The sidebar's 'Filtros salvos' menu: new filter, browse filters. Loaded the first time it opens (lazyParts.ts). */
export function ManageFiltersMenu({ anchor, onClose, onNew, onBrowse }: { anchor: HTMLElement | null; onClose: () => void; onNew: () => void; onBrowse: () => void }) {
  return (
    <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={onClose}>
      <MenuItem onClick={() => { onClose(); onNew(); }}>{t.newFilter}</MenuItem>
      <MenuItem onClick={() => { onClose(); onBrowse(); }}>{t.browseFilters}</MenuItem>
    </Menu>
  );
}
