const MAX_NAME = 200;

/**
 * A file name as the client sent it, made safe to store and to send back in a header: no directories,
 * no control or bidi-override characters, no leading dots, at most 200 characters (extension kept).
 */
export function sanitizeFileName(raw: string | undefined): string {
  let name = (raw ?? '').normalize('NFC');
  name = name.split(/[/\\]/).pop() ?? '';
  name = name.replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, '');
  name = name.replace(/\s+/gu, ' ').trim().replace(/^[.\s]+/u, '').replace(/[.\s]+$/u, '');
  if (!name) return 'arquivo';
  const chars = [...name];
  if (chars.length <= MAX_NAME) return name;
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 ? [...name.slice(dot)] : [];
  if (ext.length > 0 && ext.length <= 16) return chars.slice(0, MAX_NAME - ext.length).join('') + ext.join('');
  return chars.slice(0, MAX_NAME).join('');
}

// RFC 5987 attr-char: ALPHA / DIGIT / "!" / "#" / "$" / "&" / "+" / "-" / "." / "^" / "_" / "`" / "|" / "~"
function encodeRfc5987(value: string): string {
  return encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** Content-Disposition with an ASCII fallback name and the real one as RFC 5987 `filename*`. */
export function contentDisposition(fileName: string, inline: boolean): string {
  const fallback = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\%]/g, '_');
  return `${inline ? 'inline' : 'attachment'}; filename="${fallback}"; filename*=UTF-8''${encodeRfc5987(fileName)}`;
}
