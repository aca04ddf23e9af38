import { useState } from 'react';
import Box from '@mui/material/Box';
import { FilePickerButton } from '../common/FilePickerButton';
import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import AttachFile from '@mui/icons-material/AttachFile';
import Close from '@mui/icons-material/Close';
import { CAMPAIGN_MEDIA_EXTENSIONS, CAMPAIGN_MEDIA_TYPES, campaignMediaProblem } from '../../../api/campaigns/schema';
import { format } from '../i18n/format';
import { errorDescriptions } from '../providers/httpClient';
import { uploadFiles } from '../inbox/inboxApi';
import type { FileEntry } from '../inbox/types';
import { campaignTexts } from './texts';

const t = campaignTexts.wizard.message;
const extensionOf = (name: string) => (/\.[^.]+$/.exec(name.toLowerCase())?.[0] ?? '');

/**
 * What the browser can tell before uploading: the extension (the api reads the real type from the bytes)
 * and, when the browser names a type WhatsApp takes, its size limit — with the api's own words.
 */
function pickProblem(file: File): string | null {
  if (!(CAMPAIGN_MEDIA_EXTENSIONS as readonly string[]).includes(extensionOf(file.name))) return t.attachmentBadType;
  return CAMPAIGN_MEDIA_TYPES[file.type] ? campaignMediaProblem({ mime: file.type, size: file.size }) : null;
}

/**
 * The wizard's optional attachment: uploaded at once through POST /api/assets/upload (as the composer's
 * files), shown by name with a button to remove it. `onBusy` tells the wizard an upload is under way.
 */
export function AttachmentPicker({
  file,
  onChange,
  error,
  onError,
  help,
  required,
  onBusy,
}: {
  file: FileEntry | null;
  onChange: (file: FileEntry | null) => void;
  error: string | undefined;
  onError: (message: string | null) => void;
  help: string;
  required?: boolean;
  onBusy?: (busy: boolean) => void;
}) {
  const [uploading, setUploading] = useState(false);
  // 'Anexo (opcional)', or 'Anexo' (marked required) when the template's media header needs it.
  const label = required ? t.attachmentNeeded : t.attachment;

  const pick = async (list: File[]) => {
    onError(null);
    const chosen = list[0];
    if (!chosen) return;
    const problem = pickProblem(chosen);
    if (problem) return onError(problem);
    setUploading(true);
    onBusy?.(true);
    try {
      const [stored] = await uploadFiles([chosen]);
      onChange(stored ?? null);
    } catch (err) {
      onError(errorDescriptions(err).join(' '));
    } finally {
      setUploading(false);
      onBusy?.(false);
    }
  };

  return (
    <FormControl error={!!error} required={required}>
      <FormLabel id="campaign-attachment-label">{label}</FormLabel>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mt: 1, flexWrap: 'wrap' }}>
        <FilePickerButton
          variant="outlined"
          startIcon={<AttachFile />}
          disabled={uploading}
          inputLabel={label}
          inputDescribedBy="campaign-attachment-help"
          accept={CAMPAIGN_MEDIA_EXTENSIONS.join(',')}
          onFiles={(files) => void pick(files)}
        >
          {t.attachmentChoose}
        </FilePickerButton>
        {file ? (
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }} data-testid="campaign-attachment">
            <Typography>{file.fileName}</Typography>
            <Tooltip title={format(t.attachmentRemove, { name: file.fileName })}>
              <IconButton size="small" aria-label={format(t.attachmentRemove, { name: file.fileName })} onClick={() => onChange(null)}>
                <Close fontSize="small" />
              </IconButton>
            </Tooltip>
          </Box>
        ) : null}
      </Box>
      {uploading ? <LinearProgress aria-label={t.attachmentUploading} sx={{ mt: 1 }} /> : null}
      <FormHelperText id="campaign-attachment-help">{error || help}</FormHelperText>
    </FormControl>
  );
}
