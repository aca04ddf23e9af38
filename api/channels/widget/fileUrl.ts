import type { AppDeps } from '../../deps';
import { signedDownloadUrl } from '../../assets/signedUrl';

/** A file of a widget conversation as the visitor downloads it: the signed link of api/assets (1 hour). */
export function widgetFileUrl(deps: Pick<AppDeps, 'config'>, key: string, _fileName?: string): string {
  return signedDownloadUrl(deps.config, key);
}
