import { useMemo, useRef, useState, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useNotify } from 'react-admin';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { FilePickerButton } from '../common/FilePickerButton';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Step from '@mui/material/Step';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AttachFile from '@mui/icons-material/AttachFile';
import UploadFile from '@mui/icons-material/UploadFile';
import {
  CAMPAIGN_DEFAULTS,
  CAMPAIGN_FILE_EXTENSIONS,
  CAMPAIGN_MESSAGE_MAX_CHARS,
  CampaignCreateSchema,
  CampaignMessageSchema,
  CampaignNameSchema,
  campaignMediaProblem,
  campaignTemplateProblem,
} from '../../../api/campaigns/schema';
import { mediaHeaderKind, templateKey as keyOf, type WhatsappTemplate } from '../../../api/channels/whatsapp/templateText';
import { format } from '../i18n/format';
import { texts } from '../i18n/ptBR';
import { api, errorDescriptions, HttpError } from '../providers/httpClient';
import type { FileEntry } from '../inbox/types';
import { channelsKey } from '../settings/channels/channelKeys';
import { channelsApi } from '../settings/channels/channelsApi';
import { whatsappApi, whatsappLineKey } from '../settings/channels/whatsapp/whatsappApi';
import { campaignKeys, campaignsApi, type NumbersFileEntry } from './campaignsApi';
import { dayIn, zonedToIso } from './zone';
import { campaignTexts } from './texts';
import { AttachmentPicker } from './AttachmentPicker';
import { PlanNotice, useCampaignPlanRefusal } from './PlanNotice';

const t = campaignTexts.wizard;

/**
 * A campaign fills only the body's positional {{1}}, {{2}}… from the file's columns 2, 3…, and an image,
 * video or document header with the attachment (the api's rule, api/campaigns/schema.ts).
 */
const campaignUsable = (tpl: WhatsappTemplate) => campaignTemplateProblem(tpl, true) === null;
const PLACEHOLDER = /\{\{\s*(\d{1,2})\s*\}\}/g;

type Errors = Record<string, string>;
type Step = 0 | 1 | 2 | 3;
/** Which step shows a field's error (the server's ValidationError keys included). */
const STEP_OF: Record<string, Step> = {
  type: 0,
  name: 1,
  file: 1,
  workspacePlatformId: 2,
  message: 2,
  template: 2,
  mediaFile: 2,
  executionDate: 3,
  chunks: 3,
  timeBetweenChunks: 3,
  initialTimeBetweenMessages: 3,
  finalTimeBetweenMessages: 3,
  accepted: 3,
};

const extensionOf = (name: string) => (/\.[^.]+$/.exec(name.toLowerCase())?.[0] ?? '');
const toNumber = (s: string) => (s.trim() === '' ? Number.NaN : Number(s));

/** SPEC §4/§5: the creation wizard — type; name + file; channel + message; timing + acceptance; create. */
export function CampaignWizard() {
  const navigate = useNavigate();
  const notify = useNotify();
  const qc = useQueryClient();
  const [step, setStep] = useState<Step>(0);
  const [errors, setErrors] = useState<Errors>({});
  const [refusal, setRefusal] = useState<string[]>([]);
  // A plan without campaigns is told at the first step, whose 'Próximo' stays off (the creation checks again).
  const planRefusal = useCampaignPlanRefusal();
  const [creating, setCreating] = useState(false);
  // Step 1
  const [type, setType] = useState('');
  // Step 2
  const [name, setName] = useState('');
  const [file, setFile] = useState<NumbersFileEntry | null>(null);
  const [uploading, setUploading] = useState(false);
  // Step 3
  const [lineId, setLineId] = useState<number | ''>('');
  const [templateKey, setTemplateKey] = useState('');
  const [text, setText] = useState('');
  const textRef = useRef<HTMLTextAreaElement>(null);
  const [media, setMedia] = useState<FileEntry | null>(null);
  const [mediaUploading, setMediaUploading] = useState(false);
  // Step 4
  const [executionDate, setExecutionDate] = useState('');
  const [chunks, setChunks] = useState(String(CAMPAIGN_DEFAULTS.chunks));
  const [between, setBetween] = useState(String(CAMPAIGN_DEFAULTS.timeBetweenChunks));
  const [minWait, setMinWait] = useState(String(CAMPAIGN_DEFAULTS.initialTimeBetweenMessages));
  const [maxWait, setMaxWait] = useState(String(CAMPAIGN_DEFAULTS.finalTimeBetweenMessages));
  const [maxRaised, setMaxRaised] = useState(false);
  const [accepted, setAccepted] = useState(false);

  const channels = useQuery({ queryKey: channelsKey, queryFn: channelsApi.list, enabled: step >= 2 });
  const lines = useMemo(() => channels.data?.filter((c) => c.channelId === 'whatsapp') ?? [], [channels.data]);
  const line = useQuery({ queryKey: whatsappLineKey(Number(lineId)), queryFn: () => whatsappApi.get(Number(lineId)), enabled: lineId !== '' });
  const cloud = line.data?.provider === 'cloud';
  const templates = useQuery({
    queryKey: ['campaigns', 'templates', lineId],
    queryFn: ({ signal }) => api<WhatsappTemplate[]>(`/integrations/whatsapp/${lineId}/templates`, { signal }),
    enabled: lineId !== '' && cloud,
    staleTime: 5 * 60_000,
    retry: false,
  });
  const template = templates.data?.find((tpl) => keyOf(tpl) === templateKey);
  const workspace = useQuery({ queryKey: ['campaigns', 'workspace'], queryFn: ({ signal }) => api<{ timeZone?: string | null }>('/workspace', { signal }), staleTime: 60_000 });
  const timeZone = workspace.data?.timeZone || 'America/Sao_Paulo';
  const today = dayIn(timeZone, new Date());

  const clear = (...keys: string[]) => setErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => !keys.includes(k))));
  const messageOps = () => [{ insert: cloud ? (template?.body ?? '') : text }];

  /** The request as the api's schema reads it (executionDate in the workspace's zone). */
  const body = () => ({
    name,
    workspacePlatformId: lineId === '' ? undefined : lineId,
    message: messageOps(),
    template: cloud && template ? { name: template.name, language: template.language } : null,
    file: file?.key,
    mediaFile: media?.key ?? null,
    executionDate: executionDate ? (zonedToIso(executionDate, timeZone) ?? 'inválida') : null,
    chunks: toNumber(chunks),
    timeBetweenChunks: toNumber(between),
    initialTimeBetweenMessages: toNumber(minWait),
    finalTimeBetweenMessages: toNumber(maxWait),
  });

  /** Field errors of one step, from the shared schema and what only the wizard knows. */
  const validate = (s: Step): Errors => {
    const found: Errors = {};
    if (s === 0 && type !== 'whatsapp') found.type = t.type.required;
    if (s === 1) {
      const n = CampaignNameSchema.safeParse(name);
      if (!n.success) found.name = n.error.issues[0]?.message ?? '';
      if (!file) found.file = t.file.required;
    }
    if (s === 2) {
      if (lineId === '') found.workspacePlatformId = t.message.channelRequired;
      else if (cloud && !template) found.template = t.message.templateRequired;
      else if (!cloud) {
        const m = CampaignMessageSchema.safeParse(messageOps());
        if (!m.success) found.message = m.error.issues[0]?.message ?? '';
      }
      // The attachment: WhatsApp's types and sizes; on a Cloud line the template's media header decides.
      if (cloud && template && mediaHeaderKind(template) && !media) found.mediaFile = t.message.attachmentRequired;
      else if (media && lineId !== '' && (!cloud || template)) {
        const problem = campaignMediaProblem(media, cloud ? template : undefined);
        if (problem) found.mediaFile = problem;
      }
    }
    if (s === 3) {
      const parsed = CampaignCreateSchema.safeParse(body());
      if (!parsed.success) {
        for (const issue of parsed.error.issues) {
          const key = String(issue.path[0] ?? '');
          if (STEP_OF[key] === 3 && !found[key]) found[key] = key === 'executionDate' ? t.timing.startInvalid : issue.message;
        }
      }
      if (executionDate && !found.executionDate && executionDate.slice(0, 10) < today) found.executionDate = t.timing.startPast;
      if (!accepted) found.accepted = '';
    }
    return found;
  };

  const next = () => {
    const found = validate(step);
    setErrors(found);
    if (Object.keys(found).length === 0) setStep((s) => Math.min(3, s + 1) as Step);
  };

  const pickFile = async (list: File[]) => {
    clear('file');
    if (list.length === 0) return;
    if (list.length > 1) return setErrors((e) => ({ ...e, file: t.file.one }));
    const chosen = list[0]!;
    if (!(CAMPAIGN_FILE_EXTENSIONS as readonly string[]).includes(extensionOf(chosen.name))) {
      setFile(null);
      return setErrors((e) => ({ ...e, file: t.file.badType }));
    }
    setUploading(true);
    try {
      setFile((await campaignsApi.uploadNumbersFile(chosen)) ?? null);
    } catch (err) {
      setFile(null);
      setErrors((e) => ({ ...e, file: errorDescriptions(err).join(' ') }));
    } finally {
      setUploading(false);
    }
  };

  /** SPEC §5: the maximum wait is raised to the minimum when smaller. */
  const raiseMax = () => {
    const min = toNumber(minWait);
    const max = toNumber(maxWait);
    if (Number.isFinite(min) && Number.isFinite(max) && max < min) {
      setMaxWait(String(min));
      setMaxRaised(true);
      clear('finalTimeBetweenMessages');
    }
  };

  const insertColumn = (n: number) => {
    const el = textRef.current;
    const token = `{{${n}}}`;
    const start = el?.selectionStart ?? text.length;
    const end = el?.selectionEnd ?? text.length;
    setText(text.slice(0, start) + token + text.slice(end));
    clear('message');
  };

  const create = async () => {
    const found = validate(3);
    setErrors(found);
    setRefusal([]);
    if (Object.keys(found).length > 0) return;
    const parsed = CampaignCreateSchema.safeParse(body());
    if (!parsed.success) return;
    setCreating(true);
    try {
      const created = await campaignsApi.create(parsed.data);
      notify(campaignTexts.toasts.created, { type: 'success' });
      void qc.invalidateQueries({ queryKey: campaignKeys.all });
      void navigate(`/campaigns/${created.id}`);
    } catch (err) {
      const fields = err instanceof HttpError ? err.fieldErrors : {};
      if (Object.keys(fields).length > 0) {
        setErrors(fields);
        const first = Math.min(...Object.keys(fields).map((k) => STEP_OF[k] ?? 3)) as Step;
        setStep(first);
      } else {
        // The plan's limit (403/409) and other refusals: said on the page and toasted.
        setRefusal(errorDescriptions(err));
        for (const m of errorDescriptions(err)) notify(m, { type: 'error' });
      }
    } finally {
      // SPEC §8: a failed creation resets the loading state.
      setCreating(false);
    }
  };

  const preview = cloud ? (template?.body ?? '') : text;
  // The file's own column names (column 2 fills {{1}}…) and its first data row, when the upload read them.
  const headers = file?.columns?.headers ?? null;
  const firstRow = file?.columns?.firstRow ?? null;
  const columnCount = headers?.length || firstRow?.length || 5;
  const columnName = (n: number) => headers?.[n - 1] || format(t.message.column, { col: n + 1 });
  const columnChips = (
    <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }} data-testid="campaign-column-chips">
      {Array.from({ length: Math.min(columnCount, 19) }, (_, i) => i + 1).map((n) => (
        <Chip
          key={n}
          size="small"
          variant="outlined"
          label={headers ? `{{${n}}} ${columnName(n)}` : format(t.message.insertColumn, { n: n + 1 })}
          onClick={() => insertColumn(n)}
          aria-label={`{{${n}}}: ${headers ? format(t.message.insertHeader, { header: columnName(n), col: n + 1 }) : format(t.message.insertColumn, { n: n + 1 })}`}
        />
      ))}
    </Box>
  );
  // The preview fills each {{n}} with the first row's value ([name of the column] when the row has none).
  const filled = (message: string) => message.replace(PLACEHOLDER, (_, n: string) => firstRow?.[Number(n) - 1] || `[${columnName(Number(n))}]`);

  let content: ReactNode = null;
  if (step === 0) {
    content = (
      <>
        {planRefusal ? <PlanNotice refusal={planRefusal} /> : null}
        <FormControl error={!!errors.type} disabled={!!planRefusal}>
          <FormLabel id="campaign-type-label">{t.type.label}</FormLabel>
          <RadioGroup
            aria-labelledby="campaign-type-label"
            value={type}
            onChange={(e) => {
              setType(e.target.value);
              clear('type');
            }}
          >
            <FormControlLabel value="whatsapp" control={<Radio />} label={t.type.whatsapp} />
          </RadioGroup>
          <FormHelperText>{errors.type || t.type.whatsappHelp}</FormHelperText>
        </FormControl>
      </>
    );
  } else if (step === 1) {
    content = (
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
        <TextField
          label={t.file.name}
          value={name}
          required
          onChange={(e) => {
            setName(e.target.value);
            clear('name');
          }}
          error={!!errors.name}
          helperText={errors.name}
          slotProps={{ htmlInput: { maxLength: 120 } }}
        />
        <FormControl error={!!errors.file}>
          <FormLabel>{t.file.label}</FormLabel>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mt: 1 }}>
            <FilePickerButton variant="outlined" startIcon={<UploadFile />} disabled={uploading} inputLabel={t.file.label} accept={CAMPAIGN_FILE_EXTENSIONS.join(',')} onFiles={(files) => void pickFile(files)}>
              {t.file.choose}
            </FilePickerButton>
            {file ? <Typography data-testid="campaign-file">{format(t.file.uploaded, { name: file.fileName })}</Typography> : null}
          </Box>
          {uploading ? <LinearProgress aria-label={t.file.uploading} sx={{ mt: 1 }} /> : null}
          <FormHelperText>{errors.file || t.file.help}</FormHelperText>
        </FormControl>
      </Box>
    );
  } else if (step === 2) {
    content = (
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
        {channels.isPending ? <LinearProgress aria-label={texts.common.loading} /> : null}
        {channels.error ? <Alert severity="error">{errorDescriptions(channels.error).join(' ')}</Alert> : null}
        {channels.data && lines.length === 0 ? <Alert severity="warning">{t.message.noLines}</Alert> : null}
        <TextField
          select
          id="campaign-line"
          label={t.message.channel}
          value={lineId}
          onChange={(e) => {
            setLineId(Number(e.target.value));
            setTemplateKey('');
            clear('workspacePlatformId', 'template', 'message', 'mediaFile');
          }}
          error={!!errors.workspacePlatformId}
          helperText={errors.workspacePlatformId}
        >
          {lines.map((c) => (
            <MenuItem key={c.id} value={c.id}>
              {c.description || c.name || c.identifier}
              {c.status === 'disconnected' ? ` (${t.message.disconnected})` : ''}
            </MenuItem>
          ))}
        </TextField>
        {line.isFetching ? <LinearProgress aria-label={t.message.templatesLoading} /> : null}
        {line.error ? <Alert severity="error">{errorDescriptions(line.error).join(' ')}</Alert> : null}
        {lineId !== '' && line.data && cloud ? (
          <>
            <Alert severity="info">{t.message.templateHelp}</Alert>
            {templates.isPending ? <LinearProgress aria-label={t.message.templatesLoading} /> : null}
            {templates.error ? <Alert severity="error">{errorDescriptions(templates.error).join(' ')}</Alert> : null}
            {templates.data && !templates.data.some(campaignUsable) ? <Alert severity="warning">{t.message.noTemplates}</Alert> : null}
            {templates.data ? (
              <TextField
                select
                id="campaign-template"
                label={t.message.template}
                value={templateKey}
                onChange={(e) => {
                  setTemplateKey(e.target.value);
                  clear('template', 'message', 'mediaFile');
                }}
                error={!!errors.template}
                helperText={errors.template}
              >
                {templates.data.map((tpl) => (
                  <MenuItem key={keyOf(tpl)} value={keyOf(tpl)} disabled={!campaignUsable(tpl)} title={campaignTemplateProblem(tpl, true) ?? undefined}>
                    {`${tpl.name} (${tpl.language})`}
                    {mediaHeaderKind(tpl) ? ` · ${format(t.message.attachmentHeaderShort, { kind: t.message.mediaKinds[mediaHeaderKind(tpl)!] ?? '' })}` : ''}
                    {campaignUsable(tpl) ? '' : ` — ${t.message.unsupported}`}
                  </MenuItem>
                ))}
              </TextField>
            ) : null}
            {template && template.bodyVariables.length > 0 ? (
              <Box data-testid="campaign-template-variables">
                <Typography variant="subtitle2">{t.message.variables}</Typography>
                {template.bodyVariables.map((v) => (
                  <Typography key={v.name} variant="body2">
                    {headers?.[Number(v.name) - 1] ? format(t.message.variableFromHeader, { n: v.name, header: headers[Number(v.name) - 1]!, col: Number(v.name) + 1 }) : format(t.message.variableFrom, { n: v.name, col: Number(v.name) + 1 })}
                  </Typography>
                ))}
              </Box>
            ) : null}
          </>
        ) : null}
        {lineId !== '' && line.data && !cloud ? (
          <>
            <TextField
              label={t.message.text}
              multiline
              minRows={4}
              maxRows={12}
              inputRef={textRef}
              value={text}
              onChange={(e) => {
                setText(e.target.value);
                clear('message');
              }}
              error={!!errors.message}
              helperText={errors.message || `${t.message.textHelp} ${text.length}/${CAMPAIGN_MESSAGE_MAX_CHARS}`}
            />
            {columnChips}
          </>
        ) : null}
        {lineId !== '' && line.data && (!cloud || template) ? (
          <AttachmentPicker
            file={media}
            onChange={(f) => {
              setMedia(f);
              clear('mediaFile');
            }}
            error={errors.mediaFile}
            onError={(m) => setErrors((e) => (m ? { ...e, mediaFile: m } : Object.fromEntries(Object.entries(e).filter(([k]) => k !== 'mediaFile'))))}
            help={
              cloud && template && mediaHeaderKind(template)
                ? format(t.message.attachmentHeader, { kind: t.message.mediaKinds[mediaHeaderKind(template)!] ?? '' })
                : cloud
                  ? t.message.attachmentHelpCloud
                  : t.message.attachmentHelp
            }
            required={!!(cloud && template && mediaHeaderKind(template))}
            onBusy={setMediaUploading}
          />
        ) : null}
        {errors.message && cloud ? <Alert severity="error">{errors.message}</Alert> : null}
        {preview.trim() ? (
          <Paper variant="outlined" sx={{ p: 2, bgcolor: 'action.hover' }}>
            <Typography variant="subtitle2">{t.message.preview}</Typography>
            {firstRow ? (
              <Typography variant="caption" color="text.secondary">
                {t.message.previewFirstRow}
              </Typography>
            ) : null}
            {media ? (
              <Typography data-testid="campaign-preview-attachment" variant="body2" sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
                <AttachFile fontSize="small" aria-hidden />
                {media.fileName}
              </Typography>
            ) : null}
            <Typography data-testid="campaign-preview" sx={{ whiteSpace: 'pre-wrap' }}>
              {filled(preview)}
            </Typography>
          </Paper>
        ) : null}
      </Box>
    );
  } else {
    const numberField = (label: string, value: string, set: (v: string) => void, key: string, extra?: { help?: string; min?: number; onBlur?: () => void }) => (
      <TextField
        label={label}
        type="number"
        value={value}
        onChange={(e) => {
          set(e.target.value);
          clear(key);
          if (key === 'finalTimeBetweenMessages' || key === 'initialTimeBetweenMessages') setMaxRaised(false);
        }}
        onBlur={extra?.onBlur}
        error={!!errors[key]}
        helperText={errors[key] || extra?.help}
        slotProps={{ htmlInput: { min: extra?.min ?? 0, step: 1, inputMode: 'numeric' } }}
      />
    );
    content = (
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
        <TextField
          label={t.timing.start}
          type="datetime-local"
          value={executionDate}
          onChange={(e) => {
            setExecutionDate(e.target.value);
            clear('executionDate');
          }}
          error={!!errors.executionDate}
          helperText={errors.executionDate || format(t.timing.startHelp, { zone: timeZone })}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: `${today}T00:00` } }}
        />
        {numberField(t.timing.chunks, chunks, setChunks, 'chunks', { help: t.timing.chunksHelp, min: 1 })}
        {numberField(t.timing.timeBetweenChunks, between, setBetween, 'timeBetweenChunks')}
        {numberField(t.timing.minWait, minWait, setMinWait, 'initialTimeBetweenMessages', { onBlur: raiseMax })}
        {numberField(t.timing.maxWait, maxWait, setMaxWait, 'finalTimeBetweenMessages', { onBlur: raiseMax, help: maxRaised ? t.timing.maxRaised : undefined })}
        <FormControlLabel
          control={
            <Checkbox
              checked={accepted}
              onChange={(e) => {
                setAccepted(e.target.checked);
                clear('accepted');
              }}
            />
          }
          label={t.timing.accept}
        />
        {refusal.length ? (
          <Alert severity="error" data-testid="campaign-refusal">
            {refusal.join(' ')}
          </Alert>
        ) : null}
      </Box>
    );
  }

  return (
    <Box sx={{ p: 3, maxWidth: 840 }}>
      <Typography variant="h5" component="h1" fontWeight={700} sx={{ mb: 2 }}>
        {t.title}
      </Typography>
      <Stepper activeStep={step} sx={{ mb: 3 }} alternativeLabel>
        {t.steps.map((label, i) => (
          <Step key={label} completed={i < step}>
            <StepLabel error={Object.keys(errors).some((k) => STEP_OF[k] === i && errors[k])}>{label}</StepLabel>
          </Step>
        ))}
      </Stepper>
      <Paper variant="outlined" sx={{ p: 3 }} component="section" aria-label={t.steps[step]}>
        {content}
      </Paper>
      {creating ? <LinearProgress aria-label={t.creating} sx={{ mt: 2 }} /> : null}
      <Box sx={{ display: 'flex', gap: 1, mt: 2 }}>
        <Button onClick={() => void navigate('/campaigns')}>{t.cancel}</Button>
        <Box sx={{ flex: 1 }} />
        {step > 0 ? (
          <Button onClick={() => setStep((s) => (s - 1) as Step)} disabled={creating}>
            {t.back}
          </Button>
        ) : null}
        {step < 3 ? (
          <Button variant="contained" onClick={next} disabled={uploading || mediaUploading || (step === 0 && !!planRefusal)}>
            {t.next}
          </Button>
        ) : (
          <Button variant="contained" onClick={() => void create()} disabled={!accepted || creating}>
            {t.create}
          </Button>
        )}
      </Box>
    </Box>
  );
}
