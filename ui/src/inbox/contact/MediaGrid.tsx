import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import InsertDriveFileOutlined from '@mui/icons-material/InsertDriveFileOutlined';
import { texts } from '../../i18n/ptBR';
import { format } from '../../i18n/format';
import { fileHref } from '../conversation/content';
import { filesOf, useCustomerMedia } from './contactApi';
import type { FileEntry } from './types';
import { Loading, RetryAlert } from '../loadStates';
import { EmptyNote } from './SectionList';

const t = texts.inboxPanels.contact;

/** Images, audio and files exchanged with the contact, through their signed `url`; 30 per page. */
export function MediaGrid({ customerId }: { customerId: number }) {
  const media = useCustomerMedia(customerId);
  if (media.isLoading) {
    return <Loading size={20} padding={1} />;
  }
  if (media.isError) {
    return <RetryAlert onRetry={media.refetch}>{t.mediaError}</RetryAlert>;
  }
  const files = (media.data?.pages ?? []).flatMap((p) => p.data.filter((m) => !m.isDeleted).flatMap((m) => filesOf(m).map((f, i) => ({ file: f, key: `${m.id}-${i}` }))));
  if (files.length === 0) {
    return <EmptyNote>{t.noMedia}</EmptyNote>;
  }
  return (
    <Box>
      <Box component="ul" aria-label={t.media} sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(76px, 1fr))', gap: 0.75 }}>
        {files.map(({ file, key }) => (
          <MediaItem key={key} file={file} />
        ))}
      </Box>
      {media.hasNextPage ? (
        <Button size="small" fullWidth onClick={() => void media.fetchNextPage()} loading={media.isFetchingNextPage} sx={{ mt: 1 }}>
          {t.loadMore}
        </Button>
      ) : null}
    </Box>
  );
}

function MediaItem({ file }: { file: FileEntry }) {
  const url = fileHref(file.url);
  const tile = { aspectRatio: '1', borderRadius: 1, overflow: 'hidden', border: 1, borderColor: 'divider', bgcolor: 'action.hover' } as const;
  if (file.mime.startsWith('image/') && url) {
    return (
      <Box component="li" data-testid="contact-media" sx={tile}>
        <Link href={url} target="_blank" rel="noopener" aria-label={format(t.image, { name: file.fileName })} sx={{ display: 'block', height: '100%' }}>
          <Box component="img" src={url} alt={file.fileName} loading="lazy" sx={{ width: '100%', height: '100%', objectFit: 'cover', display: 'block' }} />
        </Link>
      </Box>
    );
  }
  if (file.mime.startsWith('audio/') && url) {
    return (
      <Box component="li" data-testid="contact-media" sx={{ gridColumn: '1 / -1' }}>
        <Box component="audio" controls preload="none" src={url} aria-label={file.fileName} sx={{ width: '100%', height: 36 }} />
      </Box>
    );
  }
  return (
    <Box component="li" data-testid="contact-media" sx={tile}>
      <Link
        href={url}
        download={file.fileName}
        aria-label={format(t.download, { name: file.fileName })}
        underline="none"
        sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', height: '100%', p: 0.5, gap: 0.5, color: 'text.secondary' }}
      >
        <InsertDriveFileOutlined />
        <Typography fontSize={11} noWrap sx={{ maxWidth: '100%' }} title={file.fileName}>
          {file.fileName}
        </Typography>
      </Link>
    </Box>
  );
}
