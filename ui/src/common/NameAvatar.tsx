import { useState } from 'react';
import Avatar, { type AvatarProps } from '@mui/material/Avatar';

/** SPEC §3: the default avatar is a coloured letter circle from a 12-colour palette. */
const PALETTE = ['#0f766e', '#1d4ed8', '#7c3aed', '#be185d', '#b45309', '#15803d', '#0369a1', '#9333ea', '#c2410c', '#4d7c0f', '#a21caf', '#475569'];

function colorFor(name: string): string {
  let hash = 0;
  for (const ch of name) hash = (hash * 31 + ch.codePointAt(0)!) >>> 0;
  return PALETTE[hash % PALETTE.length]!;
}

/** Only URLs we can load under our CSP: same-origin paths and http(s) addresses. */
function srcOf(avatar: string | null | undefined): string | undefined {
  if (!avatar) return undefined;
  if (/^https?:\/\//.test(avatar) || avatar.startsWith('/')) return avatar;
  return `/api/assets/download/${encodeURIComponent(avatar)}`;
}

export function NameAvatar({ name: given, avatar, size = 32, sx, ...props }: { name: string | null | undefined; avatar?: string | null; size?: number } & AvatarProps) {
  const name = given ?? '';
  const [broken, setBroken] = useState(false);
  const src = broken ? undefined : srcOf(avatar);
  return (
    <Avatar
      {...props}
      alt={name}
      src={src}
      slotProps={{ img: { onError: () => setBroken(true) } }}
      sx={{ width: size, height: size, fontSize: size * 0.45, bgcolor: colorFor(name), color: '#fff', ...sx }}
    >
      {name.trim().charAt(0).toUpperCase() || '?'}
    </Avatar>
  );
}
