import type { Environment } from "@keyhold/contract";
import { Badge } from "@/components/ui/badge";

/** A project's environments by slug (the name is in the tooltip); a long list is cut with a count. */
export function EnvironmentBadges({ environments, max = 4 }: { environments: readonly Environment[]; max?: number }) {
  if (environments.length === 0) return <span className="text-[13px] text-muted-foreground">None</span>;
  const shown = environments.slice(0, max);
  const rest = environments.length - shown.length;
  return (
    <span className="flex flex-wrap gap-1">
      {shown.map((env) => (
        <Badge key={env.id || env.slug} tone="outline" title={env.name} className="font-mono text-foreground">
          {env.slug}
        </Badge>
      ))}
      {rest > 0 ? <Badge tone="outline">+{rest} more</Badge> : null}
    </span>
  );
}
