import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import Add from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import { HTTP_METHODS, INPUT_PROPS, RESPONSE_TYPES } from '../../../../../api/bots/schema';
import { texts } from '../../../i18n/ptBR';
import type { BotChoices, BotDoc } from '../botTypes';
import { newGuid, type ActionDoc } from './draft';
import { SelectInput, TextInput } from './fields';

const f = texts.bots.fields;

export interface ActionFieldsProps {
  value: ActionDoc;
  set(patch: Record<string, unknown>): void;
  errors: Record<string, string>;
  doc: BotDoc;
  /** The path the action belongs to (goto/path may not point at it). */
  pathGuid: string;
  choices: BotChoices;
  /** Integration headers and response map are edited as JSON text. */
  json: { headers: string; map: string };
  setJson(patch: Partial<{ headers: string; map: string }>): void;
}

/** The form of each action type (SPEC §3 Action fields, §5 rules). */
export function ActionFields({ value: a, set, errors, doc, pathGuid, choices, json, setJson }: ActionFieldsProps) {
  const paths = (exclude?: string) => doc.paths.filter((p) => p.guid !== exclude).map((p) => ({ value: p.guid, label: p.name }));
  const text = (label = f.text, required = false) => <TextInput id="action-text" label={label} required={required} multiline minRows={3} autoFocus value={'text' in a ? a.text : ''} onChange={(v) => set({ text: v })} error={errors.text} />;

  switch (a.type) {
    case 'message':
      return text(f.text, true);
    case 'resolve':
      return text();
    case 'input':
      return (
        <>
          {text(f.text, true)}
          <SelectInput id="action-response-type" label={f.responseType} required value={a.responseType} onChange={(v) => set({ responseType: v })} options={RESPONSE_TYPES.map((r) => ({ value: r, label: f.responseTypes[r] }))} error={errors.responseType} />
          <SelectInput id="action-input-prop" label={f.inputProp} required value={a.inputProp} onChange={(v) => set({ inputProp: v })} options={INPUT_PROPS.map((p) => ({ value: p, label: f.inputProps[p] }))} error={errors.inputProp} />
          {a.inputProp === 'custom' ? (
            <>
              <TextInput id="action-input-prop-name" label={f.inputPropName} required value={a.inputPropName} onChange={(v) => set({ inputPropName: v })} error={errors.inputPropName} />
              <TextInput id="action-input-prop-code" label={f.inputPropCode} required value={a.inputPropCode} onChange={(v) => set({ inputPropCode: v })} error={errors.inputPropCode} />
            </>
          ) : null}
          <TextInput id="action-input-invalid" label={f.inputInvalid} value={a.inputInvalid} onChange={(v) => set({ inputInvalid: v })} error={errors.inputInvalid} />
        </>
      );
    case 'agent': {
      const list = a.assigneeType === 'group' ? choices.groups : choices.agents;
      return (
        <>
          <SelectInput id="action-assignee-type" label={f.assigneeType} required value={a.assigneeType} onChange={(v) => set({ assigneeType: v, assignee: undefined })} options={(['group', 'agent'] as const).map((k) => ({ value: k, label: f.assigneeTypes[k] }))} error={errors.assigneeType} />
          <SelectInput id="action-assignee" label={f.assignee} required value={a.assignee} onChange={(v) => set({ assignee: v ?? undefined })} options={list.map((c) => ({ value: c.id, label: c.name }))} error={errors.assignee} />
          {text()}
        </>
      );
    }
    case 'tag':
      return (
        <>
          <SelectInput id="action-tag" label={f.tag} required value={a.tag} onChange={(v) => set({ tag: v ?? undefined })} options={choices.tags.map((c) => ({ value: c.id, label: c.name }))} error={errors.tag} />
          {text()}
        </>
      );
    case 'goto':
    case 'path':
      return <SelectInput id="action-go-to-path" label={f.goToPath} required value={a.goToPath || null} onChange={(v) => set({ goToPath: v ?? '' })} options={paths(pathGuid)} error={errors.goToPath} />;
    case 'menu':
      return (
        <>
          <TextInput id="action-title" label={f.title} value={a.title} onChange={(v) => set({ title: v })} error={errors.title} autoFocus />
          {text()}
          <TextInput id="action-text-invalid" label={f.textInvalid} value={a.textInvalid} onChange={(v) => set({ textInvalid: v })} error={errors.textInvalid} />
          <Typography variant="overline" component="h3" sx={{ mt: 1, display: 'block' }}>
            {f.options}
          </Typography>
          {errors.options ? (
            <Typography color="error" variant="caption">
              {errors.options}
            </Typography>
          ) : null}
          {a.options.map((o, k) => (
            <Box key={o.guid} sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
              <Typography sx={{ pt: 2.5, minWidth: 20 }}>{k + 1}.</Typography>
              <TextInput id={`action-option-${k}-name`} label={f.optionName} required value={o.name} onChange={(v) => set({ options: a.options.map((x, i) => (i === k ? { ...x, name: v } : x)) })} error={errors[`options.${k}.name`]} />
              <SelectInput id={`action-option-${k}-goto`} label={f.goTo} value={o.goTo ?? null} emptyLabel={f.noPath} onChange={(v) => set({ options: a.options.map((x, i) => (i === k ? { ...x, goTo: v } : x)) })} options={paths()} error={errors[`options.${k}.goTo`]} />
              <IconButton aria-label={`${f.removeOption} ${k + 1}`} sx={{ mt: 1.5 }} disabled={a.options.length <= 1} onClick={() => set({ options: a.options.filter((_, i) => i !== k) })}>
                <DeleteOutline />
              </IconButton>
            </Box>
          ))}
          <Button startIcon={<Add />} onClick={() => set({ options: [...a.options, { guid: newGuid(), name: '', goTo: null }] })}>
            {f.addOption}
          </Button>
        </>
      );
    case 'integration':
      return (
        <>
          <TextInput id="action-name" label={f.integrationName} required autoFocus value={a.name} onChange={(v) => set({ name: v })} error={errors.name} />
          {text()}
          <TextInput id="action-url" label={f.url} required value={a.script.url} onChange={(v) => set({ script: { ...a.script, url: v } })} error={errors['script.url']} />
          <SelectInput id="action-method" label={f.method} value={a.script.method ?? 'GET'} onChange={(v) => set({ script: { ...a.script, method: v ?? 'GET' } })} options={HTTP_METHODS.map((m) => ({ value: m, label: m }))} error={errors['script.method']} />
          <TextInput id="action-headers" label={f.headers} multiline minRows={2} value={json.headers} onChange={(v) => setJson({ headers: v })} error={errors['script.headers']} />
          <TextInput id="action-body" label={f.body} multiline minRows={2} value={a.script.body ?? ''} onChange={(v) => set({ script: { ...a.script, body: v } })} error={errors['script.body']} />
          <TextInput id="action-map" label={f.map} multiline minRows={2} value={json.map} onChange={(v) => setJson({ map: v })} error={errors.map} />
          <SelectInput id="action-failure-path" label={f.failurePath} value={a.failurePath ?? null} emptyLabel={f.noPath} onChange={(v) => set({ failurePath: v })} options={paths()} error={errors.failurePath} />
        </>
      );
  }
}

