/**
 * The few scheduling texts shown outside the area (the header, the composer's button, the message bubble),
 * apart from ./texts so the inbox's own JavaScript carries only these.
 */
export const scheduleLabels = {
  nav: 'Agendamentos',
  composerButton: 'Agendar',
  bubble: 'Agendada por %{name}',
} as const;
