import type { ReactNode } from 'react';
import { Alert } from '../common/LazyAlert';
import { shellTexts as texts } from '../i18n/shellTexts';
import { useSession } from '../providers/session';

/** Pages SPEC §6 reserves to an access level; the API enforces it too, this only explains. */
export function RequireLevel({ level, children }: { level: number; children: ReactNode }) {
  const session = useSession();
  if (!session || session.workspace.accessLevel < level) {
    return (
      <Alert severity="warning" sx={{ m: 3 }}>
        {texts.common.forbidden}
      </Alert>
    );
  }
  return <>{children}</>;
}
