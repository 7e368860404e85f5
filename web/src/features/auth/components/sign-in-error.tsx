import { useRevalidator, useRouteError } from "react-router";
import { ErrorPanel } from "@/components/errors/error-panel";

/**
 * The sign-in route's error element: checking for a session or reading the ways to sign in failed (the server could not be
 * reached, or answered with an error). Part of the first screen, so it stays small; the
 * console's routes share the fuller `RouteError`.
 */
export function SignInError() {
  const error = useRouteError();
  const revalidator = useRevalidator();
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center bg-surface px-4 py-12">
      <ErrorPanel
        className="w-full max-w-md"
        error={error}
        title="Keyhold could not prepare the sign-in page"
        onRetry={() => void revalidator.revalidate()}
      />
    </main>
  );
}
