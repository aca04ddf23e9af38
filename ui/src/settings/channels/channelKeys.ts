/** react-query key of the settings' channel list (its own module, so the inbox's first run can refresh it cheaply). */
export const channelsKey = ['settings', 'channels'] as const;
