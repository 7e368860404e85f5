import { Badge } from "@/components/ui/badge";
import { describeCountdown, formatCountdown } from "@/lib/countdown";
import { formatDateTime } from "@/lib/format";

/** The time left, ticking with the page's clock, and the end date beneath it. */
export function CountdownCell({ endsAt, now }: { endsAt: string; now: number }) {
  const left = Date.parse(endsAt) - now;
  return (
    <div className="grid min-w-0 gap-0.5">
      {left > 0 ? (
        <time dateTime={endsAt} className="font-mono text-sm font-medium tabular-nums">
          <span aria-hidden>{formatCountdown(left)}</span>
          <span className="sr-only">{describeCountdown(left)}</span>
        </time>
      ) : (
        <span>
          <Badge tone="warning">Expired</Badge>
        </span>
      )}
      <span className="text-xs text-muted-foreground">
        {left > 0 ? "Ends" : "Ended"} {formatDateTime(endsAt)}
      </span>
    </div>
  );
}
