import { QueryErrorResetBoundary } from "@tanstack/react-query";
import { Component, type ReactNode, Suspense } from "react";

interface BoundaryProps {
  onReset: () => void;
  fallback: (props: { error: unknown; retry: () => void }) => ReactNode;
  children: ReactNode;
}

interface BoundaryState {
  error: unknown;
  failed: boolean;
}

class ErrorBoundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { error: undefined, failed: false };

  static getDerivedStateFromError(error: unknown): BoundaryState {
    return { error, failed: true };
  }

  retry = () => {
    this.props.onReset();
    this.setState({ error: undefined, failed: false });
  };

  override render() {
    if (this.state.failed) return this.props.fallback({ error: this.state.error, retry: this.retry });
    return this.props.children;
  }
}

interface QueryBoundaryProps {
  loading: ReactNode;
  error: (props: { error: unknown; retry: () => void }) => ReactNode;
  children: ReactNode;
}

/** Suspense plus an error boundary whose retry refetches the failed queries. */
function QueryBoundary({ loading, error, children }: QueryBoundaryProps) {
  return (
    <QueryErrorResetBoundary>
      {({ reset }) => (
        <ErrorBoundary onReset={reset} fallback={error}>
          <Suspense fallback={loading}>{children}</Suspense>
        </ErrorBoundary>
      )}
    </QueryErrorResetBoundary>
  );
}

export { QueryBoundary };
