import { isRouteErrorResponse, Navigate, useLocation, useRevalidator, useRouteError } from "react-router";
import { paths } from "@/config/paths";
import { isApiError } from "@/lib/api-error";
import { ErrorPanel } from "./error-panel";
import { NotFound } from "./not-found";

/** The error element of every route branch: sign-in on 401, not-found on 404, a retryable panel otherwise. */
export function RouteError() {
  const error = useRouteError();
  const location = useLocation();
  const revalidator = useRevalidator();

  if (isApiError(error, 401)) {
    return <Navigate to={paths.signIn.href(location.pathname + location.search)} replace />;
  }
  if (isApiError(error, 404) || (isRouteErrorResponse(error) && error.status === 404)) {
    return <NotFound title="This page does not exist" description="It may have been deleted, or the link is wrong." />;
  }
  return (
    <div className="grid gap-6">
      <h1 className="text-xl font-semibold tracking-tight">Something went wrong</h1>
      <ErrorPanel error={error} title="This page could not be loaded" onRetry={() => void revalidator.revalidate()} />
    </div>
  );
}
