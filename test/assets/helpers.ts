import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { TestApi } from '../helpers/api';

/** A valid 1×1 PNG. */
export const PNG_1x1 = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

export interface UploadPart {
  field?: string;
  name: string;
  bytes: Buffer | string;
  type?: string;
}

/** POST /api/assets/upload as a browser form would send it. */
export async function upload(api: TestApi, token: string | undefined, parts: UploadPart[]) {
  const form = new FormData();
  parts.forEach((p, i) => form.append(p.field ?? `file${i}`, new Blob([p.bytes], { type: p.type ?? 'application/octet-stream' }), p.name));
  const res = await fetch(`${api.url}/api/assets/upload`, { method: 'POST', body: form, headers: token ? { Authorization: `Bearer ${token}` } : {} });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}

/** GET of a signed URL's path and query against the test server (PUBLIC_URL may not resolve in tests). */
export async function download(api: TestApi, url: string) {
  const u = new URL(url);
  const res = await fetch(`${api.url}${u.pathname}${u.search}`);
  return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()), headers: res.headers };
}

/** Every file under DATA_DIR/files, temporary ones included. */
export function filesOnDisk(api: TestApi): string[] {
  const root = path.join(api.config.dataDir, 'files');
  const out: string[] = [];
  const walk = (dir: string) => {
    let entries: string[];
    try {
      entries = readdirSync(dir);
    } catch {
      return;
    }
    for (const e of entries) {
      const p = path.join(dir, e);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(path.relative(root, p));
    }
  };
  walk(root);
  return out.sort();
}
