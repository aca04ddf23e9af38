import { lazy, Suspense } from 'react';
import type { AlertProps } from '@mui/material/Alert';

const MuiAlert = lazy(() => import('@mui/material/Alert'));

/**
 * MUI's Alert, loaded the first time one shows. The app shell's alerts (banners, a page that failed, a level
 * too low) are rare, so their code stays out of the inbox's first paint (docs/performance.md "UI weight").
 */
export function Alert(props: AlertProps) {
  return (
    <Suspense fallback={null}>
      <MuiAlert {...props} />
    </Suspense>
  );
}
