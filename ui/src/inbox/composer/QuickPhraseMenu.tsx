import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Popper from '@mui/material/Popper';
import Typography from '@mui/material/Typography';
import { texts } from '../../i18n/ptBR';
import { INBOX } from '../constants';
import type { QuickPhrase } from '../types';

const t = texts.inbox.composer;
export const PHRASE_LISTBOX_ID = 'inbox-quick-phrases';
export const phraseOptionId = (id: number) => `inbox-quick-phrase-${id}`;

/** Phrases whose tag starts with what follows the slash (or whose text contains it). */
export function matchPhrases(phrases: QuickPhrase[], query: string): QuickPhrase[] {
  const q = query.toLowerCase();
  const byTag = phrases.filter((p) => p.tag.toLowerCase().replace(/^\//, '').startsWith(q));
  const byText = q ? phrases.filter((p) => !byTag.includes(p) && p.phrase.toLowerCase().includes(q)) : [];
  return [...byTag, ...byText];
}

const truncate = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}…` : s);

interface Props {
  anchor: HTMLElement | null;
  phrases: QuickPhrase[];
  index: number;
  onPick: (p: QuickPhrase) => void;
  onHover: (i: number) => void;
  onCreate?: () => void;
}

/** The '/' drop-down of the composer (SPEC §9 width 600): arrows move, Enter or Tab picks, Esc closes. */
export function QuickPhraseMenu({ anchor, phrases, index, onPick, onHover, onCreate }: Props) {
  return (
    <Popper open={Boolean(anchor)} anchorEl={anchor} placement="top-start" sx={{ zIndex: 1300 }}>
      <Paper elevation={6} sx={{ width: INBOX.quickPhraseMenuWidth, maxWidth: 'calc(100vw - 32px)', maxHeight: 320, overflowY: 'auto', mb: 1 }}>
        <Box
          role="listbox"
          id={PHRASE_LISTBOX_ID}
          aria-label={t.quickPhrases}
          // Keep focus in the text box while clicking an option.
          onMouseDown={(e) => e.preventDefault()}
        >
          {phrases.length === 0 ? (
            <Typography sx={{ px: 2, py: 1.5, fontSize: 14, color: 'text.secondary' }}>{t.noPhrases}</Typography>
          ) : (
            phrases.map((p, i) => (
              <Box
                key={p.id}
                id={phraseOptionId(p.id)}
                role="option"
                aria-selected={i === index}
                onClick={() => onPick(p)}
                onMouseEnter={() => onHover(i)}
                sx={{ display: 'flex', gap: 1.5, alignItems: 'baseline', px: 2, py: 1, cursor: 'pointer', bgcolor: i === index ? 'action.selected' : undefined }}
              >
                <Typography component="span" sx={{ fontWeight: 700, fontSize: 14, flexShrink: 0 }}>
                  {p.tag}
                </Typography>
                <Typography component="span" noWrap sx={{ fontSize: 14, color: 'text.secondary', flex: 1 }}>
                  {truncate(p.phrase, 45)}
                </Typography>
                <Typography component="span" sx={{ fontSize: 11, color: 'text.secondary', flexShrink: 0 }}>
                  {p.privacy === 'private' ? t.privatePhrase : t.publicPhrase}
                </Typography>
              </Box>
            ))
          )}
        </Box>
        {onCreate ? (
          <Box
            component="button"
            type="button"
            onMouseDown={(e) => e.preventDefault()}
            onClick={onCreate}
            sx={{ display: 'block', width: '100%', textAlign: 'left', border: 0, borderTop: 1, borderColor: 'divider', bgcolor: 'transparent', px: 2, py: 1, fontSize: 14, color: 'primary.main', cursor: 'pointer', font: 'inherit' }}
          >
            {t.newPhrase}
          </Box>
        ) : null}
      </Paper>
    </Popper>
  );
}
