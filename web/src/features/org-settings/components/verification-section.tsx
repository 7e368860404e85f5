import type { AuditChainVerification } from "@keyhold/contract";
import { CircleCheck, ShieldCheck, ShieldOff } from "lucide-react";
import { Link } from "react-router";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { paths } from "@/config/paths";
import { useServerFeature } from "@/hooks/use-server-feature";
import { isApiError } from "@/lib/api-error";
import { errorSummary } from "@/lib/describe-error";
import { formatDateTime } from "@/lib/format";
import { useVerifyChain } from "../mutations";
import { InlineError, SettingsSection, UnavailableNote } from "@/components/layout/settings-section";

/** Walks the organisation's hash chain on demand and says whether it holds, or where it breaks. */
export function VerificationSection() {
  const feature = useServerFeature("auditChainVerification");
  const verify = useVerifyChain();
  const run = () => verify.mutate(undefined);

  return (
    <SettingsSection
      id="audit-verification"
      title="Chain verification"
      description="Each event's hash covers its content and the one before it: an edited, deleted or reordered event breaks the chain."
      action={
        feature.available ? (
          <Button size="sm" onClick={run} disabled={verify.isPending} aria-busy={verify.isPending || undefined}>
            {verify.isPending ? <Spinner /> : <ShieldCheck aria-hidden />}
            Verify now
          </Button>
        ) : undefined
      }
    >
      <div className="grid gap-3 p-4" aria-live="polite">
        {!feature.available ? (
          <UnavailableNote>{feature.reason}</UnavailableNote>
        ) : verify.isPending ? (
          <p role="status" className="flex items-center gap-2 text-[13px] text-muted-foreground">
            <Spinner />
            Walking the chain…
          </p>
        ) : verify.isError ? (
          isApiError(verify.error, 401) ? null : (
            <InlineError onRetry={run}>{errorSummary(verify.error, "Could not verify the chain")}</InlineError>
          )
        ) : verify.data ? (
          <Outcome result={verify.data} at={verify.submittedAt} />
        ) : (
          <p className="text-[13px] text-muted-foreground">
            Not verified on this page yet. Verifying reads every event the organization keeps.
          </p>
        )}
      </div>
    </SettingsSection>
  );
}

function checkedText(result: AuditChainVerification): string {
  const events = result.checkedEvents === 1 ? "1 event" : `${result.checkedEvents.toLocaleString()} events`;
  const from = result.checkpoint
    ? `from the checkpoint at event ${result.checkpoint.seq.toLocaleString()}`
    : "from the first event";
  return `${events} checked, ${from}.`;
}

function Outcome({ result, at }: { result: AuditChainVerification; at: number }) {
  const when = formatDateTime(new Date(at).toISOString());
  if (result.ok || !result.firstBroken) {
    return (
      <div className="flex items-start gap-3 rounded-md border border-success/30 bg-success-subtle px-3 py-2.5 text-[13px] text-success-subtle-foreground">
        <CircleCheck aria-hidden className="mt-0.5 size-4 shrink-0" />
        <div className="grid gap-0.5">
          <p className="font-medium">The chain holds</p>
          <p>
            {checkedText(result)} Verified {when}.
          </p>
        </div>
      </div>
    );
  }
  const broken = result.firstBroken;
  return (
    <div className="flex items-start gap-3 rounded-md border border-destructive/40 bg-destructive-subtle px-3 py-2.5 text-[13px] text-destructive-subtle-foreground">
      <ShieldOff aria-hidden className="mt-0.5 size-4 shrink-0" />
      <div className="grid min-w-0 gap-0.5">
        <p className="font-medium">The chain is broken at event {broken.seq.toLocaleString()}</p>
        <p className="[overflow-wrap:anywhere]">{broken.reason}</p>
        <p>
          {checkedText(result)} Verified {when}.
        </p>
        {broken.eventId ? (
          <p>
            <Link
              to={paths.auditLog.href({ event: broken.eventId })}
              className="rounded-sm font-medium underline underline-offset-2 outline-none focus-visible:ring-2 focus-visible:ring-ring"
            >
              Open event {broken.seq.toLocaleString()} in the audit log
            </Link>
          </p>
        ) : (
          <p>The event itself is gone: only its place in the chain is known.</p>
        )}
      </div>
    </div>
  );
}
