import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { texts } from '../../i18n/ptBR';
import { format } from '../../i18n/format';
import { renderTemplate, templateKey, type TemplateVariable, type WhatsappTemplate } from '../../../../api/channels/whatsapp/templateText';

const t = texts.whatsappTemplates;

// The template rules (variables, filling, the preview text) are the api's, shared with the browser.
export type { TemplateVariable, WhatsappTemplate } from '../../../../api/channels/whatsapp/templateText';
export { templateKey } from '../../../../api/channels/whatsapp/templateText';

export type TemplateValues = { header: Record<string, string>; body: Record<string, string> };
export const EMPTY_VALUES: TemplateValues = { header: {}, body: {} };

/** The template's variables in the order the API takes them as a list: the header's, then the body's. */
export function templateSlots(template: WhatsappTemplate): ['header' | 'body', TemplateVariable][] {
  return [...template.headerVariables.map((v) => ['header', v] as ['header', TemplateVariable]), ...template.bodyVariables.map((v) => ['body', v] as ['body', TemplateVariable])];
}

/** `{'header.1': 'Preencha a variável {{1}}.'}` for each empty variable. */
export function missingVariables(template: WhatsappTemplate, values: TemplateValues): Record<string, string> {
  const missing: Record<string, string> = {};
  for (const [part, v] of templateSlots(template)) if (!values[part][v.name]?.trim()) missing[`${part}.${v.name}`] = format(t.fill, { name: `{{${v.name}}}` });
  return missing;
}

/**
 * The template choice, one field per variable (Meta's example as placeholder) and the preview: shared by
 * the composer outside the 24-hour window and the new-message dialog on a Cloud line. `errors` are keyed
 * `name` and `header.{var}` / `body.{var}`.
 */
export function TemplateFields({
  templates,
  selected,
  onSelect,
  values,
  onChange,
  errors,
  idPrefix = 'template',
}: {
  templates: WhatsappTemplate[];
  selected: string;
  onSelect: (key: string) => void;
  values: TemplateValues;
  onChange: (values: TemplateValues, changedKey: string) => void;
  errors: Record<string, string>;
  idPrefix?: string;
}) {
  const template = templates.find((tpl) => templateKey(tpl) === selected);
  if (!templates.some((tpl) => tpl.supported)) return <Alert severity="warning">{t.none}</Alert>;
  return (
    <>
      <TextField select size="small" id={`${idPrefix}-select`} label={t.choose} value={selected} onChange={(e) => onSelect(e.target.value)} error={!!errors.name} helperText={errors.name}>
        {templates.map((tpl) => (
          <MenuItem key={templateKey(tpl)} value={templateKey(tpl)} disabled={!tpl.supported} title={tpl.unsupportedReason ?? undefined}>
            {tpl.name} ({tpl.language}){tpl.supported ? '' : ` — ${t.unsupported}`}
          </MenuItem>
        ))}
      </TextField>
      {template ? (
        <>
          {templateSlots(template).map(([part, v]) => (
            <TextField
              key={`${part}.${v.name}`}
              size="small"
              id={`${idPrefix}-${part}-${v.name}`}
              label={`${part === 'header' ? `${t.header} · ` : ''}${format(t.variable, { name: `{{${v.name}}}` })}`}
              placeholder={v.example ?? undefined}
              value={values[part][v.name] ?? ''}
              onChange={(e) => onChange({ ...values, [part]: { ...values[part], [v.name]: e.target.value } }, `${part}.${v.name}`)}
              error={!!errors[`${part}.${v.name}`]}
              helperText={errors[`${part}.${v.name}`] || undefined}
              slotProps={{ htmlInput: { maxLength: 1024 } }}
            />
          ))}
          <Typography variant="caption" color="text.secondary">
            {t.preview}
          </Typography>
          <Box data-testid="template-preview" sx={{ whiteSpace: 'pre-wrap', fontSize: 14, p: 1, borderRadius: 1, bgcolor: 'action.hover' }}>
            {renderTemplate(template, values)}
          </Box>
        </>
      ) : null}
    </>
  );
}
