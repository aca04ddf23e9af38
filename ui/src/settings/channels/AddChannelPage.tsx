import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { texts } from '../../i18n/ptBR';
import { ChannelIcon } from '../../inbox/ChannelIcon';
import { AVAILABLE_SLUGS, CHANNEL_SLUGS, PLATFORM_OF, type ChannelSlug } from './channelTypes';

const t = texts.channels;

function TypeCard({ slug }: { slug: ChannelSlug }) {
  const available = AVAILABLE_SLUGS.includes(slug);
  const body = (
    <CardContent sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
      <ChannelIcon platformId={PLATFORM_OF[slug]} size={32} aria-hidden />
      <Box>
        <Typography component="h2" fontWeight={600}>
          {t.types[slug]}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {available ? t.typeHelp[slug] : t.inDevelopment}
        </Typography>
      </Box>
    </CardContent>
  );
  return (
    <Card variant="outlined" sx={{ opacity: available ? 1 : 0.6 }} aria-disabled={!available}>
      {available ? (
        <CardActionArea component={RouterLink} to={`/settings/channels/add/${slug}`}>
          {body}
        </CardActionArea>
      ) : (
        body
      )}
    </Card>
  );
}

/** /settings/channels/add: choose the type of the new channel (SPEC §2); only the chat widget exists so far. */
export function AddChannelPage() {
  return (
    <>
      <Typography variant="h5" component="h1" fontWeight={700} sx={{ mb: 1 }}>
        {t.chooseTitle}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t.chooseText}
      </Typography>
      <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(260px, 1fr))', gap: 2, maxWidth: 960 }}>
        {CHANNEL_SLUGS.map((slug) => (
          <TypeCard key={slug} slug={slug} />
        ))}
      </Box>
    </>
  );
}
