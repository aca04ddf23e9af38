import { shellTexts as texts } from '../i18n/shellTexts';

const clock = new Intl.DateTimeFormat('pt-BR', { hour: '2-digit', minute: '2-digit' });
const weekday = new Intl.DateTimeFormat('pt-BR', { weekday: 'short' });
const shortDate = new Intl.DateTimeFormat('pt-BR', { day: '2-digit', month: '2-digit', year: '2-digit' });
const longDate = new Intl.DateTimeFormat('pt-BR', { day: 'numeric', month: 'long', year: 'numeric' });

const startOfDay = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
const DAY = 86_400_000;

function daysAgo(iso: string, now: Date): number | undefined {
  const t = new Date(iso);
  if (Number.isNaN(t.getTime())) return undefined;
  return Math.round((startOfDay(now) - startOfDay(t)) / DAY);
}

/** List rows: time today, 'Ontem', weekday within a week, else the date. */
export function listTime(iso: string | null | undefined, now = new Date()): string {
  if (!iso) return '';
  const days = daysAgo(iso, now);
  if (days === undefined) return '';
  if (days <= 0) return clock.format(new Date(iso));
  if (days === 1) return texts.inbox.yesterday;
  if (days < 7) return weekday.format(new Date(iso)).replace('.', '');
  return shortDate.format(new Date(iso));
}

export const clockTime = (iso: string) => (Number.isNaN(Date.parse(iso)) ? '' : clock.format(new Date(iso)));

/** Date separators in the conversation: 'Hoje', 'Ontem' or the full date. */
export function dayLabel(iso: string, now = new Date()): string {
  const days = daysAgo(iso, now);
  if (days === undefined) return '';
  if (days <= 0) return texts.inbox.today;
  if (days === 1) return texts.inbox.yesterday;
  return longDate.format(new Date(iso));
}

export const dayKey = (iso: string) => {
  const d = new Date(iso);
  return `${d.getFullYear()}-${d.getMonth()}-${d.getDate()}`;
};

export function fileSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1).replace('.', ',')} MB`;
}
