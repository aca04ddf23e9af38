import { STORAGE_PREFIX } from '../providers/session';

/** The 8 theme colours of SPEC §3, in their stored order. */
export const THEME_KEYS = ['sidebarBg', 'menuHoverBg', 'activeItem', 'activeItemText', 'hoverItem', 'text', 'activePresence', 'mentionBadge'] as const;
export type ThemeKey = (typeof THEME_KEYS)[number];
export type ThemeColors = Record<ThemeKey, string>;

export const DEFAULT_THEME: ThemeColors = {
  sidebarBg: '#0f2b3a',
  menuHoverBg: '#1c4257',
  activeItem: '#0f766e',
  activeItemText: '#ffffff',
  hoverItem: '#ffffff',
  text: '#c9d7e0',
  activePresence: '#22c55e',
  mentionBadge: '#e11d48',
};

/** Local preference (SPEC §3: "Theme is 8 comma-separated colors"). */
export const THEME_STORAGE_KEY = `${STORAGE_PREFIX}theme`;
const HEX = /^#[0-9a-fA-F]{6}$/;

export function parseTheme(raw: string | null): ThemeColors | null {
  if (!raw) return null;
  const parts = raw.split(',').map((p) => p.trim());
  if (parts.length !== THEME_KEYS.length || !parts.every((p) => HEX.test(p))) return null;
  return Object.fromEntries(THEME_KEYS.map((k, i) => [k, parts[i]!.toLowerCase()])) as ThemeColors;
}

export function serializeTheme(colors: ThemeColors): string {
  return THEME_KEYS.map((k) => colors[k]).join(',');
}

export function loadTheme(): ThemeColors {
  return parseTheme(localStorage.getItem(THEME_STORAGE_KEY)) ?? DEFAULT_THEME;
}

/** CSS custom property of one colour; the sidebars and badges paint with these. */
export function themeVar(key: ThemeKey): string {
  return `var(--balcao-${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)})`;
}

export function applyTheme(colors: ThemeColors): void {
  const style = document.documentElement.style;
  for (const key of THEME_KEYS) style.setProperty(themeVar(key).slice(4, -1), colors[key]);
}

export function saveTheme(colors: ThemeColors): void {
  localStorage.setItem(THEME_STORAGE_KEY, serializeTheme(colors));
  applyTheme(colors);
}
