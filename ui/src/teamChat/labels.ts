/**
 * The few team chat texts shown outside its page (the header's button, the notification settings), apart
 * from ./texts so the header's JavaScript carries only these.
 */
export const teamLabels = {
  nav: 'Equipe',
  /** The header button's name with its badge. */
  navUnread: 'Equipe: %{count} mensagens não lidas',
  navOneUnread: 'Equipe: 1 mensagem não lida',
  sound: 'Som das mensagens da equipe',
  soundHelp: 'Toca neste navegador quando um colega escreve no chat da equipe (fora da conversa aberta).',
} as const;

/** usePreference's name of the team chat's sound (per browser, like the inbox's). */
export const TEAM_SOUND_PREFERENCE = 'teamSound';
