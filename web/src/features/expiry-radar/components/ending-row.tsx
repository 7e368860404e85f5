import { Link } from "react-router";
import { Badge } from "@/components/ui/badge";
import { paths } from "@/config/paths";
import { type Ending, kindLabels } from "../endings";
import { CountdownCell } from "./countdown-cell";
import { EndingActions } from "./ending-actions";

/** One ending: when, what, whose and where, and what can be done about it. */
export function EndingRow({ ending, now }: { ending: Ending; now: number }) {
  const { holder, project } = ending;
  return (
    <li
      aria-label={`${kindLabels[ending.kind]} ${ending.name} of ${holder.name}`}
      className="grid gap-3 px-4 py-3 sm:grid-cols-[12.5rem_minmax(0,1fr)_auto] sm:items-center"
    >
      <CountdownCell endsAt={ending.endsAt} now={now} />
      <div className="grid min-w-0 gap-1">
        <div className="flex min-w-0 flex-wrap items-center gap-2">
          <Badge tone={ending.kind === "token" || ending.kind === "client-secret" ? "neutral" : "accent"}>
            {kindLabels[ending.kind]}
          </Badge>
          <span className="min-w-0 truncate font-mono text-[13px]">{ending.name}</span>
          {ending.cause === "max-ttl" ? (
            <Badge tone="outline" title="Renewing cannot keep it past this time">
              max TTL
            </Badge>
          ) : null}
        </div>
        <p className="min-w-0 truncate text-xs text-muted-foreground">
          {holder.kind === "identity" ? (
            <Link className="text-foreground hover:underline" to={paths.identity.href(holder.id)}>
              {holder.name}
            </Link>
          ) : (
            <span className="text-foreground">{holder.name}</span>
          )}
          {holder.kind === "user" ? " (user)" : ""}
          {project ? (
            <>
              {" in "}
              <Link className="text-foreground hover:underline" to={paths.project.access.href(project.id)}>
                {project.name}
              </Link>
            </>
          ) : null}
        </p>
      </div>
      <div className="flex sm:justify-end">
        <EndingActions ending={ending} />
      </div>
    </li>
  );
}
