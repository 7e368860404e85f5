import { FileQuestion } from "lucide-react";
import { isRouteErrorResponse, Link, Navigate, useLocation, useRevalidator, useRouteError } from "react-router";
import { buttonVariants } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { paths } from "@/config/paths";
import { isApiError } from "@/lib/api-error";
import { ErrorPanel } from "./error-panel";

/** The error element of every route branch: sign-in on 401, not-found on 404, a retryable panel otherwise. */
export function RouteError() {
  const error = useRouteError();
  const location = useLocation();
  const revalidator = useRevalidator();

  if (isApiError(error, 401)) {
    return <Navigate to={paths.signIn.href(location.pathname + location.search)} replace />;
  }
  if (isApiError(error, 404) || (isRouteErrorResponse(error) && error.status === 404)) {
    return (
      <div className="grid gap-6">
        <h1 className="text-xl font-semibold tracking-tight">Not found</h1>
        <EmptyState
          icon={FileQuestion}
          title="This page does not exist"
          description="It may have been deleted, or the link is wrong."
          action={
            <Link to={paths.identities.href()} className={buttonVariants({ size: "sm" })}>
              Go to identities
            </Link>
          }
        />
      </div>
    );
  }
  return (
    <div className="grid gap-6">
      <h1 className="text-xl font-semibold tracking-tight">Something went wrong</h1>
      <ErrorPanel error={error} title="This page could not be loaded" onRetry={() => void revalidator.revalidate()} />
    </div>
  );
}
