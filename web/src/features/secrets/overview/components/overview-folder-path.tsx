import { ChevronRight, FolderRoot } from "lucide-react";
import { Link } from "react-router";
import { cn } from "@/lib/cn";
import { pathCrumbs } from "../../secret-location";

const crumbLink =
  "rounded-sm px-1 font-mono text-[13px] text-muted-foreground outline-none hover:text-foreground hover:underline focus-visible:ring-2 focus-visible:ring-ring";

/** Where the overview is in the folder tree (the same path in every environment): the root, then each folder down. */
export function OverviewFolderPath({ secretPath, href }: { secretPath: string; href: (path: string) => string }) {
  const crumbs = pathCrumbs(secretPath);
  return (
    <nav aria-label="Folder path" className="min-w-0">
      <ol className="flex min-w-0 flex-wrap items-center gap-0.5">
        <li className="flex items-center">
          <Link
            to={href("/")}
            aria-current={crumbs.length === 0 ? "location" : undefined}
            aria-label="The root folder"
            className={cn(crumbLink, "inline-flex items-center gap-1.5", crumbs.length === 0 && "text-foreground")}
          >
            <FolderRoot aria-hidden className="size-4" />/
          </Link>
        </li>
        {crumbs.map((crumb, i) => {
          const last = i === crumbs.length - 1;
          return (
            <li key={crumb.path} className="flex min-w-0 items-center gap-0.5">
              <ChevronRight aria-hidden className="size-3.5 shrink-0 text-muted-foreground" />
              <Link
                to={href(crumb.path)}
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
