import { ChevronRight } from "lucide-react";
import { Fragment } from "react";
import { Link, useMatches } from "react-router";
import { isRouteHandle } from "@/lib/route-handle";

/** Breadcrumbs from the `crumb` each matched route declares in its handle. */
export function Breadcrumbs() {
  const matches = useMatches();
  const crumbs = matches.flatMap((match) =>
    isRouteHandle(match.handle) && match.handle.crumb ? [{ id: match.id, ...match.handle.crumb(match.params) }] : [],
  );
  if (crumbs.length === 0) return null;

  return (
    <nav aria-label="Breadcrumb" className="min-w-0">
      <ol className="flex min-w-0 items-center gap-1.5 text-sm">
        {crumbs.map((crumb, index) => {
          const last = index === crumbs.length - 1;
          return (
            <Fragment key={crumb.id}>
              {index > 0 ? (
                <li aria-hidden className="text-muted-foreground">
                  <ChevronRight className="size-3.5" />
                </li>
              ) : null}
              <li className="min-w-0 truncate">
                {last ? (
                  <span aria-current="page" className="font-medium text-foreground">
                    {crumb.label}
                  </span>
                ) : (
                  <Link
                    to={crumb.to}
                    className="rounded-sm text-muted-foreground outline-none hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring"
                  >
                    {crumb.label}
                  </Link>
                )}
              </li>
            </Fragment>
          );
        })}
      </ol>
    </nav>
  );
}
