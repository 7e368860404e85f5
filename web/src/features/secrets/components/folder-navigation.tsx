import type { Environment } from "@keyhold/contract";
import { ChevronRight, FolderRoot } from "lucide-react";
import { Link } from "react-router";
import { cn } from "@/lib/cn";
import { pathCrumbs, type SecretLocation } from "../secret-location";

type Href = (patch: Partial<SecretLocation>) => string;

/** The project's environments as a segmented row of links; the folder is kept when switching. */
export function EnvironmentSwitcher({
  environments,
  current,
  href,
}: {
  environments: Environment[];
  current: string | undefined;
  href: Href;
}) {
  return (
    <nav aria-label="Environments">
      <ul className="flex flex-wrap items-center gap-0.5 rounded-lg border border-border bg-surface p-0.5">
        {environments.map((env) => {
          const active = env.slug === current;
          return (
            <li key={env.id}>
              <Link
                to={href({ environment: env.slug })}
                aria-current={active ? "page" : undefined}
                className={cn(
                  "flex h-7 items-center rounded-md px-3 text-[13px] font-medium outline-none transition-colors",
                  "focus-visible:ring-2 focus-visible:ring-ring",
                  active
                    ? "bg-card text-foreground shadow-xs ring-1 ring-border"
                    : "text-muted-foreground hover:bg-hover hover:text-foreground",
                )}
              >
                {env.name}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

const crumbLink =
  "rounded-sm px-1 font-mono text-[13px] text-muted-foreground outline-none hover:text-foreground hover:underline focus-visible:ring-2 focus-visible:ring-ring";

/** Where in the environment's folder tree the page is: the root, then each folder down to this one. */
export function FolderBreadcrumbs({
  environment,
  secretPath,
  href,
}: {
  environment: Environment;
  secretPath: string;
  href: Href;
}) {
  const crumbs = pathCrumbs(secretPath);
  const atRoot = crumbs.length === 0;
  return (
    <nav aria-label="Folder path" className="min-w-0">
      <ol className="flex min-w-0 flex-wrap items-center gap-0.5">
        <li className="flex items-center">
          <Link
            to={href({ secretPath: "/" })}
            aria-current={atRoot ? "location" : undefined}
            aria-label={`${environment.slug}, the root folder of ${environment.name}`}
            className={cn(crumbLink, "inline-flex items-center gap-1.5", atRoot && "text-foreground")}
          >
            <FolderRoot aria-hidden className="size-4" />
            {environment.slug}
          </Link>
        </li>
        {crumbs.map((crumb, i) => {
          const last = i === crumbs.length - 1;
          return (
            <li key={crumb.path} className="flex min-w-0 items-center gap-0.5">
              <ChevronRight aria-hidden className="size-3.5 shrink-0 text-muted-foreground" />
              <Link
                to={href({ secretPath: crumb.path })}
                aria-current={last ? "location" : undefined}
                className={cn(crumbLink, "truncate", last && "font-medium text-foreground")}
              >
                {crumb.name}
              </Link>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
