import { Badge } from "@/components/ui/badge";
import { formatDateTime } from "@/lib/format";
import { useNow } from "@/hooks/use-now";
import { describeCountdown, formatCountdown, grantState } from "@/lib/countdown";

interface Grant {
  isTemporary: boolean;
  temporaryAccessEndTime?: string | null | undefined;
}

/** A live countdown to `endsAt`, updated every second by itself. */
export function Countdown({ endsAt }: { endsAt: string }) {
  const left = Date.parse(endsAt) - useNow();
  return <CountdownTime endsAt={endsAt} left={left} />;
}

function CountdownTime({ endsAt, left }: { endsAt: string; left: number }) {
  return (
    <time dateTime={endsAt} title={`Ends ${formatDateTime(endsAt)}`} className="font-mono text-xs tabular-nums">
      <span aria-hidden>{formatCountdown(left)}</span>
      <span className="sr-only">{describeCountdown(left)}</span>
    </time>
  );
}

/** How long a grant lasts: "Permanent", a live countdown, or "Expired" once its end has passed. */
export function GrantDuration({ grant }: { grant: Grant }) {
  if (!grant.isTemporary) return <span className="text-[13px] text-muted-foreground">Permanent</span>;
  return <TemporaryDuration grant={grant} />;
}

function TemporaryDuration({ grant }: { grant: Grant }) {
  const now = useNow();
  const end = grant.temporaryAccessEndTime;
  if (grantState(grant, now) === "expired" || !end) return <Badge tone="warning">Expired</Badge>;
  return (
    <span className="inline-flex items-center gap-1.5 text-[13px]">
      <span className="text-muted-foreground">Ends in</span>
      <CountdownTime endsAt={end} left={Date.parse(end) - now} />
    </span>
  );
}

/** A role's badge; a temporary role carries its countdown and turns to "expired" by itself. */
export function RoleBadge({ name, grant }: { name: string; grant: Grant }) {
  if (!grant.isTemporary) return <Badge>{name}</Badge>;
  return <TemporaryRoleBadge name={name} grant={grant} />;
}

function TemporaryRoleBadge({ name, grant }: { name: string; grant: Grant }) {
  const now = useNow();
  const end = grant.temporaryAccessEndTime;
  if (grantState(grant, now) === "expired" || !end) {
    return (
      <Badge tone="outline">
        <span className="line-through">{name}</span>
        <span>expired</span>
      </Badge>
    );
  }
  return (
    <Badge tone="accent" title={`Temporary until ${formatDateTime(end)}`}>
      {name}
      <span aria-hidden>·</span>
      <CountdownTime endsAt={end} left={Date.parse(end) - now} />
    </Badge>
  );
}
