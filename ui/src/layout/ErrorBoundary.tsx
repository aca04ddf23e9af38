import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Alert } from '../common/LazyAlert';
import Button from '@mui/material/Button';
import { shellTexts as texts } from '../i18n/shellTexts';

interface State {
  failed: boolean;
}

/** A page that throws while rendering shows a message instead of blanking the whole app. */
export class ErrorBoundary extends Component<{ children: ReactNode; resetKey?: string }, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error(error, info.componentStack);
  }

  override componentDidUpdate(prev: { resetKey?: string }): void {
    if (this.state.failed && prev.resetKey !== this.props.resetKey) this.setState({ failed: false });
  }

  override render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    return (
      <Alert severity="error" sx={{ m: 3 }} action={<Button onClick={() => window.location.reload()}>{texts.common.reload}</Button>}>
        {texts.common.error}
      </Alert>
    );
  }
}
