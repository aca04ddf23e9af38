import { useState } from 'react';
import { useWatch, type Control } from 'react-hook-form';
import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import ChatBubble from '@mui/icons-material/ChatBubble';
import Close from '@mui/icons-material/Close';
import Send from '@mui/icons-material/Send';
import { texts } from '../../../i18n/ptBR';
import type { WidgetChannelForm } from './WidgetChannelInputs';
// Black or white text on the widget colour, as the widget itself picks it.
import { textOn } from '../../../../widget/dom';

const t = texts.channels.widget;
const DEFAULT_COLOR = '#0F766E';

/**
 * The widget as a visitor will see it, redrawn from the form on every change (before saving): colour,
 * logo, company name and tagline, the answer-time line (a sample figure), the greeting, the pre-chat form
 * and, with the switch, the out-of-hours message; the button on the chosen side.
 */
export function WidgetPreview({ control, company }: { control: Control<WidgetChannelForm>; company: string }) {
  const v = useWatch({ control });
  const [closed, setClosed] = useState(false);
  const color = /^#[0-9a-fA-F]{6}$/.test(v.avatar ?? '') ? v.avatar! : DEFAULT_COLOR;
  const on = textOn(color);
  const left = v.position === 'left';
  const asked = (['name', 'email', 'phone'] as const).filter((f) => v.preChat?.[f] && v.preChat[f] !== 'off');
  const labels = { name: t.preChatName, email: t.preChatEmail, phone: t.preChatPhone };

  return (
    <Box component="section" aria-labelledby="widget-preview-title" data-testid="widget-preview" sx={{ position: { lg: 'sticky' }, top: { lg: 16 }, maxWidth: { xs: 560, lg: 'none' } }}>
      <Typography id="widget-preview-title" component="h2" variant="subtitle1" fontWeight={700}>
        {t.preview}
      </Typography>
      <FormControlLabel control={<Switch checked={closed} onChange={(e) => setClosed(e.target.checked)} />} label={t.previewOutOfHours} />
      <Box sx={{ bgcolor: 'grey.100', borderRadius: 2, p: 1.5, display: 'flex', flexDirection: 'column', alignItems: left ? 'flex-start' : 'flex-end', gap: 1.5 }}>
        <Box sx={{ width: '100%', maxWidth: 340, bgcolor: '#fff', borderRadius: 3, boxShadow: 3, overflow: 'hidden' }}>
          <Box data-testid="preview-header" sx={{ bgcolor: color, color: on, p: 1.5, display: 'flex', alignItems: 'center', gap: 1.25 }}>
            {v.logo ? <Box component="img" src={v.logo} alt="" sx={{ width: 36, height: 36, borderRadius: '50%', objectFit: 'cover', bgcolor: '#fff', flexShrink: 0 }} /> : null}
            <Box sx={{ flex: 1, minWidth: 0 }}>
              <Typography fontWeight={700} sx={{ overflowWrap: 'anywhere' }}>
                {company || t.previewCompany}
              </Typography>
              {v.tagline ? <Typography variant="body2" sx={{ opacity: 0.9, overflowWrap: 'anywhere' }}>{v.tagline}</Typography> : null}
              {v.showResponseTime && !closed ? (
                <Typography variant="caption" sx={{ opacity: 0.85 }}>
                  {t.previewResponse}
                </Typography>
              ) : null}
            </Box>
            <Close fontSize="small" aria-hidden />
          </Box>
          {closed && v.outOfHoursMessage ? (
            <Box sx={{ px: 1.5, py: 1, bgcolor: '#eef2ff', color: '#1e3a8a', fontSize: 13, overflowWrap: 'anywhere' }}>{v.outOfHoursMessage}</Box>
          ) : null}
          <Box sx={{ bgcolor: '#f6f7f9', p: 1.5, minHeight: 64 }}>
            {v.greeting ? (
              <Typography variant="body2" color="text.secondary" textAlign="center" sx={{ overflowWrap: 'anywhere' }} data-testid="preview-greeting">
                {v.greeting}
              </Typography>
            ) : null}
          </Box>
          {asked.length ? (
            <Box sx={{ p: 1.5, display: 'flex', flexDirection: 'column', gap: 0.75, borderTop: 1, borderColor: 'divider' }}>
              {asked.map((f) => (
                <Box key={f}>
                  <Typography variant="caption" fontWeight={600}>
                    {labels[f]} {v.preChat?.[f] === 'required' ? '*' : t.previewOptional}
                  </Typography>
                  <Box sx={{ border: 1, borderColor: 'grey.400', borderRadius: 1, height: 30 }} />
                </Box>
              ))}
              <Box sx={{ mt: 0.5, bgcolor: color, color: on, borderRadius: 1, py: 0.75, textAlign: 'center', fontWeight: 700, fontSize: 14 }}>{t.previewStart}</Box>
            </Box>
          ) : (
            <Box sx={{ p: 1.25, display: 'flex', alignItems: 'center', gap: 1, borderTop: 1, borderColor: 'divider' }}>
              <Box sx={{ flex: 1, border: 1, borderColor: 'grey.400', borderRadius: 2, px: 1, py: 0.75, color: 'text.secondary', fontSize: 14 }}>{t.previewPlaceholder}</Box>
              <Box sx={{ bgcolor: color, color: on, borderRadius: '50%', width: 34, height: 34, display: 'grid', placeItems: 'center' }}>
                <Send fontSize="small" aria-hidden />
              </Box>
            </Box>
          )}
        </Box>
        <Box data-testid="preview-launcher" data-position={left ? 'left' : 'right'} sx={{ bgcolor: color, color: on, width: 52, height: 52, borderRadius: '50%', display: 'grid', placeItems: 'center', boxShadow: 3 }}>
          <ChatBubble aria-hidden />
        </Box>
      </Box>
    </Box>
  );
}
