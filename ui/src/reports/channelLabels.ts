/** SPEC §2 contacts report labels of a channel type (the api's CHANNEL_LABELS in api/reports/lists.ts). */
export const CHANNEL_LABELS: Record<string, string> = {
  whatsapp: 'WhatsApp',
  instagram: 'Instagram',
  facebook: 'Messenger',
  telegram: 'Telegram',
  email: 'Email',
  custom: 'Customizado',
  widget: 'Widget',
};
