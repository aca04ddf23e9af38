import { useCallback, useState } from 'react';
import { STORAGE_PREFIX } from '../providers/session';

/** A local preference of the inbox (SPEC §3 "sidebar/panel prefs"), under balcao.* so logout clears it. */
export function usePreference(name: string, fallback: number): readonly [number, (value: number) => void];
export function usePreference(name: string, fallback: boolean): readonly [boolean, (value: boolean) => void];
export function usePreference(name: string, fallback: string): readonly [string, (value: string) => void];
export function usePreference(name: string, fallback: string | number | boolean): readonly [any, (value: any) => void] {
  type T = typeof fallback;
  const key = `${STORAGE_PREFIX}inbox.${name}`;
  const [value, setValue] = useState<T>(() => {
    const raw = localStorage.getItem(key);
    if (raw === null) return fallback;
    try {
      const parsed = JSON.parse(raw) as unknown;
      return typeof parsed === typeof fallback ? (parsed as T) : fallback;
    } catch {
      return fallback;
    }
  });
  const update = useCallback(
    (next: T) => {
      setValue(next);
      localStorage.setItem(key, JSON.stringify(next));
    },
    [key],
  );
  return [value, update] as const;
}
