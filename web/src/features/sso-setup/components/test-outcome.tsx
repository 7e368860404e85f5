import type { OidcTestResult } from "@keyhold/contract";
import { CircleAlert, CircleCheck, CircleDashed } from "lucide-react";
import { Spinner } from "@/components/ui/spinner";
import { cn } from "@/lib/cn";

const exact = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "medium" });

/** A test sign-in's outcome: who signed in as which identity, or why it failed. */
export function TestOutcome({ result, className }: { result: OidcTestResult; className?: string }) {
  const tone = {
    none: "border-border bg-surface text-muted-foreground",
    pending: "border-border bg-surface",
    passed: "border-success/40 bg-success-subtle text-success-subtle-foreground",
    failed: "border-destructive/40 bg-destructive-subtle text-destructive-subtle-foreground",
  }[result.status];
  const title = {
    none: "No test sign-in yet",
    pending: "Waiting for the sign-in in the other window…",
    passed: "Test sign-in passed",
    failed: "Test sign-in failed",
  }[result.status];
  const Icon = { none: CircleDashed, pending: Spinner, passed: CircleCheck, failed: CircleAlert }[result.status];
  const who = result.person?.email ?? result.person?.name ?? result.person?.subject;
  return (
    <div
      role={result.status === "failed" ? "alert" : "status"}
      className={cn("flex items-start gap-2.5 rounded-md border px-3 py-2.5 text-[13px]", tone, className)}
    >
      <Icon aria-hidden className="mt-0.5 size-4 shrink-0" />
      <div className="grid min-w-0 gap-0.5">
        <p className="font-medium">{title}</p>
        {/* The BFF's own sentence says it all; without one, who signed in as which identity. */}
        {result.status === "passed" && !result.message && who && result.identity ? (
          <p>
            <span className="font-medium">{who}</span> signed in as the identity{" "}
            <span className="font-medium">{result.identity.name}</span>.
          </p>
        ) : null}
        {result.message ? <p className="break-words">{result.message}</p> : null}
        {result.at && result.status !== "pending" ? (
          <p className="text-xs opacity-80">{exact.format(new Date(result.at))}</p>
        ) : null}
      </div>
    </div>
  );
}
