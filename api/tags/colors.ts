/** The 12 preset tag colour pairs (background, text) offered by the tag form (SPEC §3 Tag). */
export const TAG_COLOR_PAIRS = [
  { color: '#FDE2E1', textColor: '#B42318' },
  { color: '#FFEAD5', textColor: '#B93815' },
  { color: '#FEF0C7', textColor: '#B54708' },
  { color: '#FEF7C3', textColor: '#854A0E' },
  { color: '#E3FBCC', textColor: '#3B7C0F' },
  { color: '#D1FADF', textColor: '#027A48' },
  { color: '#CCFBEF', textColor: '#107569' },
  { color: '#CFF9FE', textColor: '#0E7090' },
  { color: '#D1E9FF', textColor: '#175CD3' },
  { color: '#E0EAFF', textColor: '#3538CD' },
  { color: '#EBE9FE', textColor: '#5925DC' },
  { color: '#FCE7F6', textColor: '#C11574' },
] as const;
