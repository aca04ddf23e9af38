/** SPEC §5/§9: the line phone as typed, masked to `+55 (11) 91234-5678` (19 characters at most). */
export function maskPhoneInput(value: string): string {
  const d = value.replace(/\D/g, '').slice(0, 13);
  let out = d ? `+${d.slice(0, 2)}` : '';
  if (d.length > 2) out += ` (${d.slice(2, 4)}`;
  if (d.length > 4) out += `) ${d.slice(4, 9)}`;
  if (d.length > 9) out += `-${d.slice(9)}`;
  return out;
}
