import { useEffect, useState, type FormEvent } from 'react';
import { useNotify } from 'react-admin';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Alert from '@mui/material/Alert';
import Chip from '@mui/material/Chip';
import ExpandMore from '@mui/icons-material/ExpandMore';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import LinearProgress from '@mui/material/LinearProgress';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { CSAT_EMOJIS, CSAT_QUESTION_MAX, CSAT_THANKS_MAX, CsatSettingsSchema, csatInstructions, type CsatScale } from '../../../api/csat/schema';
import { api, errorDescriptions, HttpError } from '../providers/httpClient';
import { EMPTY_VALUES, TemplateFields, templateKey, type TemplateValues, type WhatsappTemplate } from '../inbox/whatsappTemplates/TemplateFields';
import { csatApi, csatKeys, type CsatChannelSettings } from './csatApi';
import { csatTexts } from './texts';

const t = csatTexts.settings;

/** The zod issues of the form as `{key: message}` (the first per field), keys as the api names them. */
function issuesOf(result: ReturnType<typeof CsatSettingsSchema.safeParse>): Record<string, string> {
  const out: Record<string, string> = {};
  if (!result.success) for (const i of result.error.issues) out[i.path.join('.')] ??= i.message;
  return out;
}

/**
 * A channel's satisfaction survey (docs/csat.md), under the channel's own settings (level 6+, as every channel
 * setting): on/off (off by default), the scale, the question and the thanks in pt-BR, and on a WhatsApp Cloud
 * line the approved template used outside the 24-hour window. Saved on its own (PUT /api/csat/channels/{id}).
 */
export function CsatSettingsSection({ channelId }: { channelId: number }) {
  const notify = useNotify();
  const queryClient = useQueryClient();
  const q = useQuery({ queryKey: csatKeys.settings(channelId), queryFn: ({ signal }) => csatApi.settings(channelId, signal), retry: false });
  const [form, setForm] = useState<{ enabled: boolean; scale: CsatScale; question: string; thanks: string }>({ enabled: false, scale: 'numbers', question: '', thanks: '' });
  const [useTemplate, setUseTemplate] = useState(false);
  const [templateKeyChosen, setTemplateKeyChosen] = useState('');
  const [values, setValues] = useState<TemplateValues>(EMPTY_VALUES);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const cloud = q.data?.cloud === true;
  const templates = useQuery({
    queryKey: ['csat', 'templates', channelId],
    queryFn: ({ signal }) => api<WhatsappTemplate[]>(`/integrations/whatsapp/${channelId}/templates`, { signal }),
    enabled: cloud,
    retry: false,
  });

  useEffect(() => {
    const s = q.data;
    if (!s) return;
    setForm({ enabled: s.enabled, scale: s.scale, question: s.question, thanks: s.thanks });
    setUseTemplate(s.template !== null);
    setTemplateKeyChosen(s.template ? `${s.template.name}:${s.template.language}` : '');
    setValues(s.template ? { header: s.template.header, body: s.template.body } : EMPTY_VALUES);
  }, [q.data]);

  if (q.isPending) return <LinearProgress aria-label={t.title} />;
  if (q.error) return <Alert severity="error">{t.loadFailed}</Alert>;

  const chosen = (templates.data ?? []).find((tpl) => `${tpl.name}:${tpl.language}` === templateKeyChosen || templateKey(tpl) === templateKeyChosen);
  const withTemplate = cloud && useTemplate;
  const body = { ...form, template: withTemplate && chosen ? { name: chosen.name, language: chosen.language, header: values.header, body: values.body } : null };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const local = issuesOf(CsatSettingsSchema.safeParse(body));
    if (withTemplate && !chosen) local['template.name'] = t.chooseTemplate;
    setErrors(local);
    if (Object.keys(local).length) return;
    setSaving(true);
    try {
      const saved = await csatApi.save(channelId, body);
      queryClient.setQueryData<CsatChannelSettings>(csatKeys.settings(channelId), saved);
      notify(t.saved, { type: 'success' });
    } catch (err) {
      if (err instanceof HttpError && Object.keys(err.fieldErrors).length) setErrors(err.fieldErrors);
      else for (const m of errorDescriptions(err)) notify(m, { type: 'error' });
    } finally {
      setSaving(false);
    }
  };
  const templateErrors = Object.fromEntries(Object.entries(errors).filter(([k]) => k.startsWith('template.')).map(([k, v]) => [k.slice('template.'.length), v]));
  const preview = `${form.question || '…'}\n${csatInstructions(form.scale)}`;

  // Folded until opened: the channel's own form stays the page's main one (and its 'Salvar' the only one in view).
  return (
    <Accordion variant="outlined" sx={{ mt: 3 }} data-testid="csat-settings" slotProps={{ heading: { component: 'h2' }, transition: { unmountOnExit: true } }}>
      <AccordionSummary expandIcon={<ExpandMore />} aria-controls="csat-details" id="csat-summary">
        <Typography variant="h6" component="span" sx={{ flex: 1 }}>
          {t.title}
        </Typography>
        <Chip size="small" sx={{ mr: 1 }} color={q.data?.enabled ? 'success' : 'default'} label={q.data?.enabled ? t.on : t.off} data-testid="csat-state" />
      </AccordionSummary>
      <AccordionDetails id="csat-details">
        <Typography variant="body2" color="text.secondary" paragraph>
          {t.intro}
        </Typography>
        <form onSubmit={(e) => void submit(e)} noValidate>
          <FormControlLabel control={<Switch checked={form.enabled} onChange={(e) => setForm({ ...form, enabled: e.target.checked })} />} label={t.enabled} />
          <Box sx={{ mt: 1 }}>
            <FormLabel id="csat-scale">{t.scale}</FormLabel>
            <RadioGroup row aria-labelledby="csat-scale" value={form.scale} onChange={(e) => setForm({ ...form, scale: e.target.value as CsatScale })}>
              <FormControlLabel value="numbers" control={<Radio />} label={t.scales.numbers} />
              <FormControlLabel value="emojis" control={<Radio />} label={t.scales.emojis} />
            </RadioGroup>
          </Box>
          <TextField
            id="csat-question"
            label={t.question}
            value={form.question}
            onChange={(e) => setForm({ ...form, question: e.target.value })}
            required
            fullWidth
            multiline
            margin="normal"
            error={!!errors.question}
            helperText={errors.question ?? t.questionHelp}
            slotProps={{ htmlInput: { maxLength: CSAT_QUESTION_MAX } }}
          />
          <TextField
            id="csat-thanks"
            label={t.thanks}
            value={form.thanks}
            onChange={(e) => setForm({ ...form, thanks: e.target.value })}
            fullWidth
            margin="normal"
            error={!!errors.thanks}
            helperText={errors.thanks ?? t.thanksHelp}
            slotProps={{ htmlInput: { maxLength: CSAT_THANKS_MAX } }}
          />
          {cloud ? (
            <Box sx={{ mt: 2, display: 'flex', flexDirection: 'column', gap: 1.5 }} data-testid="csat-template">
              <Typography variant="subtitle1" component="h3" fontWeight={600}>
                {t.windowTitle}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {t.windowIntro}
              </Typography>
              <FormControlLabel control={<Switch checked={useTemplate} onChange={(e) => setUseTemplate(e.target.checked)} />} label={useTemplate ? t.useTemplate : t.noTemplate} />
              {errors.template ? <Alert severity="error">{errors.template}</Alert> : null}
              {useTemplate && templates.error ? <Alert severity="error">{t.templatesFailed}</Alert> : null}
              {useTemplate && templates.isPending ? <LinearProgress /> : null}
              {useTemplate && templates.data ? (
                <TemplateFields
                  templates={templates.data}
                  selected={chosen ? templateKey(chosen) : ''}
                  onSelect={(key) => {
                    setTemplateKeyChosen(key);
                    setValues(EMPTY_VALUES);
                  }}
                  values={values}
                  onChange={(v) => setValues(v)}
                  errors={templateErrors}
                  idPrefix="csat-template"
                />
              ) : null}
            </Box>
          ) : null}
          <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 2 }}>
            {t.preview}
          </Typography>
          {q.data?.channelType === 'widget' ? (
            <Box data-testid="csat-preview" sx={{ p: 1, borderRadius: 1, bgcolor: 'action.hover', fontSize: 14 }}>
              <div>{form.question}</div>
              <Box aria-hidden sx={{ display: 'flex', gap: 1, mt: 1 }}>
                {(form.scale === 'emojis' ? CSAT_EMOJIS : ['1', '2', '3', '4', '5']).map((label) => (
                  <Box key={label} sx={{ border: '1px solid', borderColor: 'divider', borderRadius: 1, px: 1.25, py: 0.5, bgcolor: 'background.paper' }}>
                    {label}
                  </Box>
                ))}
              </Box>
              <Typography variant="caption" color="text.secondary">
                {t.previewWidget}
              </Typography>
            </Box>
          ) : (
            <Box data-testid="csat-preview" sx={{ whiteSpace: 'pre-wrap', p: 1, borderRadius: 1, bgcolor: 'action.hover', fontSize: 14 }}>
              {preview}
            </Box>
          )}
          <Box sx={{ mt: 2 }}>
            <Button type="submit" variant="contained" disabled={saving}>
              {t.save}
            </Button>
          </Box>
        </form>
      </AccordionDetails>
    </Accordion>
  );
}
