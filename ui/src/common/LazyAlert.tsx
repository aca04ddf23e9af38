import { lazy } from 'react';
import type { AlertProps } from '@mui/material/Alert';
import { LazyPart } from './lazyLoad';

const MuiAlert = lazy(() => import('@mui/material/Alert'));

/**
 * MUI's Alert, loaded the first time one shows. The app shell's alerts (banners, a page that failed, a level
 * too low) are rare, so their code stays out of the inbox's first paint (docs/performance.md "UI weight").
 * The error boundary's message must show even when what failed was fetching code: then it is plain text.
 */
export function Alert(props: AlertProps) {
  const plain = (
    <div role="alert" style={{ margin: 16, padding: 12, border: '1px solid currentColor', borderRadius: 8 }}>
      {props.children} {props.action}
    </div>
  );
  return (
    <LazyPart fallback={plain}>
      <MuiAlert {...props} />
    </LazyPart>
  );
}
