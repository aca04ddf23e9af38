import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import SmartToy from '@mui/icons-material/SmartToy';
import { texts } from '../i18n/ptBR';
import { ChannelIcon } from '../inbox/ChannelIcon';
import { ChoiceCards } from '../common/ChoiceCards';

const t = texts.powerUps;

type CardKey = keyof typeof t.cards;

/**
 * SPEC §2 Power-ups: Facebook, WhatsApp and bot; SPEC shows Telegram disabled ('Funcionalidade em
 * desenvolvimento!'), but Telegram works now (issue 13) and no working channel keeps that notice (issue 14):
 * its card leads to where a Telegram bot is added (docs/decisions.md).
 */
const CARDS: { key: CardKey; to: string; icon: ReactNode }[] = [
  { key: 'facebook', to: '/power-ups/facebook', icon: <ChannelIcon platformId={3} size={32} aria-hidden /> },
  { key: 'whatsapp', to: '/power-ups/whatsapp', icon: <ChannelIcon platformId={1} size={32} aria-hidden /> },
  { key: 'bot', to: '/power-ups/bot', icon: <SmartToy sx={{ fontSize: 32 }} color="primary" aria-hidden /> },
  { key: 'telegram', to: '/settings/channels/add/telegram', icon: <ChannelIcon platformId={2} size={32} aria-hidden /> },
];

function PowerUpCard({ card }: { card: (typeof CARDS)[number] }) {
  const text = t.cards[card.key];
  return (
    <Card variant="outlined">
      <CardActionArea component={RouterLink} to={card.to}>
        <CardContent sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
          {card.icon}
          <Box>
            <Typography component="h2" fontWeight={600}>
              {text.title}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {text.text}
            </Typography>
          </Box>
        </CardContent>
      </CardActionArea>
    </Card>
  );
}

/** /power-ups: the cards of SPEC §2, each leading to its page. */
export function PowerUpsPage() {
  return (
    <Box sx={{ p: 3 }}>
      <ChoiceCards title={t.title} text={t.text}>
        {CARDS.map((card) => (
          <PowerUpCard key={card.key} card={card} />
        ))}
      </ChoiceCards>
    </Box>
  );
}
