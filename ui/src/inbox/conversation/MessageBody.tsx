import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import InsertDriveFileOutlined from '@mui/icons-material/InsertDriveFileOutlined';
import Download from '@mui/icons-material/Download';
import PersonOutline from '@mui/icons-material/PersonOutline';
import PlaceOutlined from '@mui/icons-material/PlaceOutlined';
import { texts } from '../../i18n/ptBR';
import { fileSize } from '../formatTime';
import { fileHref, filesOf, linkify, mapUrl, messageExtras, messageText, whatsappChatUrl, type SharedContact, type SharedLocation } from './content';
import type { FileEntry, Message } from '../types';

const t = texts.inbox;

/** Text as React elements: line breaks kept by CSS, links as anchors; never innerHTML. */
export function LinkifiedText({ text }: { text: string }) {
  return (
    <>
      {linkify(text).map((part, i) =>
        part.kind === 'link' ? (
          <Link key={i} href={part.href} target="_blank" rel="noopener noreferrer nofollow" sx={{ wordBreak: 'break-all', color: 'inherit', textDecorationColor: 'currentcolor' }}>
            {part.text}
          </Link>
        ) : (
          <span key={i}>{part.text}</span>
        ),
      )}
    </>
  );
}

// A recorded voice message is stored as WebM, which content sniffing reports as video.
const isAudio = (f: FileEntry) => f.mime.startsWith('audio/') || (f.mime === 'video/webm' && /^record.*\.webm$/i.test(f.fileName));

function FileView({ file }: { file: FileEntry }) {
  const url = fileHref(file.url);
  if (url && file.mime.startsWith('image/')) {
    return (
      <Link href={url} target="_blank" rel="noopener noreferrer" aria-label={`${t.openImage}: ${file.fileName}`} sx={{ display: 'block' }}>
        <Box component="img" src={url} alt={file.fileName} loading="lazy" sx={{ display: 'block', maxWidth: 260, maxHeight: 260, borderRadius: 1, objectFit: 'cover' }} />
      </Link>
    );
  }
  if (url && isAudio(file)) {
    return <Box component="audio" controls preload="metadata" src={url} aria-label={`${t.audio}: ${file.fileName}`} sx={{ display: 'block', maxWidth: 280, height: 40 }} />;
  }
  if (url && file.mime.startsWith('video/')) {
    return <Box component="video" controls preload="metadata" src={url} aria-label={file.fileName} sx={{ display: 'block', maxWidth: 280, maxHeight: 240, borderRadius: 1 }} />;
  }
  const inner = (
    <>
      <InsertDriveFileOutlined fontSize="small" aria-hidden />
      <Box component="span" sx={{ minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
        {file.fileName}
      </Box>
      <Box component="span" sx={{ fontSize: 12, opacity: 0.75, flexShrink: 0 }}>
        {fileSize(file.size)}
      </Box>
      {url ? <Download fontSize="small" aria-hidden /> : null}
    </>
  );
  const sx = { display: 'flex', alignItems: 'center', gap: 1, px: 1, py: 0.75, borderRadius: 1, bgcolor: 'rgba(0,0,0,0.06)', color: 'inherit', maxWidth: 300 };
  return url ? (
    <Link href={url} download={file.fileName} underline="none" aria-label={`${t.download}: ${file.fileName}`} sx={sx}>
      {inner}
    </Link>
  ) : (
    <Box sx={sx}>{inner}</Box>
  );
}

const cardSx = { display: 'flex', gap: 1, px: 1, py: 0.75, borderRadius: 1, bgcolor: 'rgba(0,0,0,0.06)', maxWidth: 300, fontSize: 14 } as const;

/** A contact the customer shared: name, company, phones (a WhatsApp link where it has a WhatsApp id), e-mails. */
function ContactCard({ contact }: { contact: SharedContact }) {
  return (
    <Box data-testid="message-contact" role="group" aria-label={`${t.sharedContact}: ${contact.name ?? ''}`} sx={{ ...cardSx, mb: 0.5 }}>
      <PersonOutline fontSize="small" aria-hidden sx={{ mt: 0.25 }} />
      <Box sx={{ minWidth: 0, overflowWrap: 'anywhere' }}>
        <Box sx={{ fontWeight: 700 }}>{contact.name ?? t.sharedContact}</Box>
        {contact.org ? <Box sx={{ fontSize: 12, opacity: 0.8 }}>{contact.org}</Box> : null}
        {contact.phones.map((p, i) => {
          const href = whatsappChatUrl(p.waId);
          return (
            <Box key={`p${i}`}>
              {href ? (
                <Link href={href} target="_blank" rel="noopener noreferrer nofollow" sx={{ color: 'inherit' }}>
                  {p.phone}
                </Link>
              ) : (
                p.phone
              )}
            </Box>
          );
        })}
        {contact.emails.map((e, i) => (
          <Box key={`e${i}`}>{e}</Box>
        ))}
      </Box>
    </Box>
  );
}

/** A location the customer shared: its name and address, and a link that opens the map. */
function LocationCard({ location }: { location: SharedLocation }) {
  const label = [location.name, location.address].filter(Boolean).join(' — ');
  return (
    <Box data-testid="message-location" role="group" aria-label={t.sharedLocation} sx={cardSx}>
      <PlaceOutlined fontSize="small" aria-hidden sx={{ mt: 0.25 }} />
      <Box sx={{ minWidth: 0, overflowWrap: 'anywhere' }}>
        {label ? <Box sx={{ fontWeight: 700 }}>{label}</Box> : null}
        <Link href={mapUrl(location)} target="_blank" rel="noopener noreferrer nofollow" sx={{ color: 'inherit' }}>
          {t.openMap}
        </Link>
      </Box>
    </Box>
  );
}

/** The content of a message: Delta text with links, or its files (image preview, audio player, download). */
export function MessageBody({ message }: { message: Message }) {
  if (message.isDeleted) {
    return (
      <Typography component="span" sx={{ fontStyle: 'italic', opacity: 0.7, fontSize: 14 }}>
        {t.messageDeleted}
      </Typography>
    );
  }
  const files = filesOf(message.content);
  const extras = messageExtras(message);
  // A shared contact or location is shown as its card; its text version is for previews and search.
  if (files.length === 0 && (extras.contacts?.length || extras.location)) {
    return (
      <>
        {extras.contacts?.map((c, i) => <ContactCard key={i} contact={c} />)}
        {extras.location ? <LocationCard location={extras.location} /> : null}
      </>
    );
  }
  const text = files.length > 0 ? '' : messageText(message);
  return (
    <>
      {files.map((file, i) => (
        <FileView key={`${file.key}-${i}`} file={file} />
      ))}
      {text ? (
        <Typography component="div" sx={{ fontSize: 14, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          <LinkifiedText text={text} />
        </Typography>
      ) : null}
    </>
  );
}
