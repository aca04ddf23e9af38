import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { texts } from '../../i18n/ptBR';
import { ChannelIcon } from '../../inbox/ChannelIcon';
import { AVAILABLE_SLUGS, CHANNEL_SLUGS, PLATFORM_OF, type ChannelSlug } from './channelTypes';
import { ChoiceCards } from '../../common/ChoiceCards';

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
    <ChoiceCards title={t.chooseTitle} text={t.chooseText}>
      {CHANNEL_SLUGS.map((slug) => (
        <TypeCard key={slug} slug={slug} />
      ))}
    </ChoiceCards>
  );
}
