import { Component, type ErrorInfo, type ReactNode } from 'react';

export interface ErrorFallbackProps {
  error: Error;
  /** Clears the error and renders the children again. */
  reset: () => void;
}

interface Props {
  children: ReactNode;
  fallback: (props: ErrorFallbackProps) => ReactNode;
  /** When any of these change (e.g. the location), a shown error is cleared. */
  resetKeys?: readonly unknown[];
}

interface State {
  error: Error | null;
}

const toError = (value: unknown) => (value instanceof Error ? value : new Error(String(value)));

const changed = (a: readonly unknown[] = [], b: readonly unknown[] = []) =>
  a.length !== b.length || a.some((value, index) => !Object.is(value, b[index]));

/** Catches render failures below it and shows `fallback` instead (spec §2/§8: the error screen). */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error: toError(error) };
  }

  override componentDidUpdate(previous: Props) {
    if (this.state.error && changed(previous.resetKeys, this.props.resetKeys)) this.reset();
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    // React reports the error itself; the component stack is what helps to find it.
    console.error('Render failed', toError(error).message, info.componentStack);
  }

  reset = () => this.setState({ error: null });

  override render() {
    return this.state.error ? this.props.fallback({ error: this.state.error, reset: this.reset }) : this.props.children;
  }
}
