import type { AuditLogStream, AuditLogStreamStatus } from "@keyhold/contract";
import { type UseQueryResult, useQuery } from "@tanstack/react-query";
import { Pencil, Plus, Upload } from "lucide-react";
import { useState } from "react";
import { DeleteWithConfirm } from "@/components/permissions/delete-with-confirm";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { type FeatureState, useServerFeature } from "@/hooks/use-server-feature";
import { errorSummary } from "@/lib/describe-error";
import { formatDateTime } from "@/lib/format";
import { deliveryView, describeMode } from "../delivery-state";
import { useDeleteStream, useTestStream } from "../mutations";
import { auditSettingsQueries } from "../queries";
import { InlineError, SettingsSection, UnavailableNote } from "@/components/layout/settings-section";
import { StreamDialog } from "./stream-dialog";

/** Where the organisation's events are sent, and how delivery goes; the state refreshes while shown. */
export function StreamsSection() {
  const [adding, setAdding] = useState(false);
  const list = useQuery(auditSettingsQueries.streamList());
  const hasStreams = (list.data?.length ?? 0) > 0;
  const delivery = useServerFeature("auditStreamDelivery");
  // Read whenever the section is shown, streams or not: a server without Keyhold's delivery state
  // is known at once (and with it, that it has no verification either).
  const status = useQuery({ ...auditSettingsQueries.streamStatus(), enabled: delivery.available });
  return (
    <SettingsSection
      id="audit-streams"
      title="Streams"
      description="Send every event, in order and at least once, to an HTTP endpoint your team already watches (a SIEM or a log pipeline)."
      action={
        hasStreams ? (
          <Button size="sm" variant="primary" onClick={() => setAdding(true)}>
            <Plus aria-hidden />
            Add stream
          </Button>
        ) : undefined
      }
    >
      <div className="grid gap-3 p-4">
        {list.isPending ? (
          <StreamsSkeleton />
        ) : list.isError ? (
          <InlineError onRetry={() => void list.refetch()}>
            {errorSummary(list.error, "Could not load the streams")}
          </InlineError>
        ) : list.data.length === 0 ? (
          <EmptyState
            icon={Upload}
            headingLevel={3}
            className="py-10"
            title="No streams yet"
            description="Events stay in Keyhold only. Add a stream to send each one to your own receiver as it is written."
            action={
              <Button size="sm" variant="primary" onClick={() => setAdding(true)}>
                <Plus aria-hidden />
                Add stream
              </Button>
            }
          />
        ) : (
          <StreamList streams={list.data} delivery={delivery} status={status} />
        )}
      </div>
      <StreamDialog open={adding} onOpenChange={setAdding} />
    </SettingsSection>
  );
}

interface StreamListProps {
  streams: AuditLogStream[];
  delivery: FeatureState;
  /** The delivery state of every stream, refreshed every few seconds while shown. */
  status: UseQueryResult<AuditLogStreamStatus[]>;
}

function StreamList({ streams, delivery, status }: StreamListProps) {
  const byId = new Map((status.data ?? []).map((s) => [s.id, s]));
  return (
    <>
      {!delivery.available ? (
        <UnavailableNote>{delivery.reason}</UnavailableNote>
      ) : status.isError ? (
        <InlineError onRetry={() => void status.refetch()}>
          {errorSummary(status.error, "Could not read the delivery state")}
        </InlineError>
      ) : null}
      <ul aria-label="Streams" className="grid gap-3">
        {streams.map((stream) => (
          <StreamRow
            key={stream.id}
            stream={stream}
            status={byId.get(stream.id)}
            statusPending={delivery.available && status.isPending}
            canTest={delivery.available}
          />
        ))}
      </ul>
    </>
  );
}

interface StreamRowProps {
  stream: AuditLogStream;
  status: AuditLogStreamStatus | undefined;
  statusPending: boolean;
  canTest: boolean;
}

function StreamRow({ stream, status, statusPending, canTest }: StreamRowProps) {
  const [editing, setEditing] = useState(false);
  const test = useTestStream();
  const ref = { provider: stream.provider, streamId: stream.id };
  const url = stream.credentials.url;
  const headerNames = stream.credentials.headers.map((h) => h.key);
  const urlId = `stream-${stream.id}-url`;

  return (
    <li aria-labelledby={urlId} className="grid gap-3 rounded-lg border border-border bg-card p-3 sm:p-4">
      <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2">
        <div className="grid min-w-0 flex-1 basis-64 gap-1">
          <p id={urlId} className="font-mono text-[13px] font-medium [overflow-wrap:anywhere]">
            {url}
          </p>
          <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-muted-foreground">
            <Badge tone="outline">{describeMode(stream.streamMode)}</Badge>
            <span>
              {headerNames.length === 0 ? "No headers" : `Headers: ${headerNames.join(", ")} (values hidden)`}
            </span>
          </p>
        </div>
        <div className="flex shrink-0 items-center gap-1">
          {canTest ? (
            <Button
              size="sm"
              onClick={() => test.mutate(ref)}
              disabled={test.isPending}
              aria-busy={test.isPending || undefined}
              aria-label={`Send test event to ${url}`}
            >
              {test.isPending ? <Spinner /> : <Upload aria-hidden />}
              Send test event
            </Button>
          ) : null}
          <Button variant="ghost" size="icon-sm" aria-label={`Edit stream ${url}`} onClick={() => setEditing(true)}>
            <Pencil aria-hidden />
          </Button>
          <DeleteStreamButton stream={stream} />
        </div>
      </div>
      {canTest ? <Delivery status={status} pending={statusPending} /> : null}
      <TestOutcome test={test} />
      <StreamDialog stream={stream} open={editing} onOpenChange={setEditing} />
    </li>
  );
}

function Delivery({ status, pending }: { status: AuditLogStreamStatus | undefined; pending: boolean }) {
  if (!status) {
    return pending ? (
      <div className="flex gap-3" aria-busy="true">
        <Skeleton className="h-4 w-24" />
        <Skeleton className="h-4 w-40" />
      </div>
    ) : null;
  }
  const view = deliveryView(status);
  return (
    <dl className="grid gap-x-6 gap-y-1.5 border-t border-border pt-3 text-[13px] sm:grid-cols-[auto_auto_1fr]">
      <div className="flex items-center gap-2">
        <dt className="sr-only">Delivery</dt>
        <dd>
          <Badge tone={view.tone}>{view.label}</Badge>
        </dd>
      </div>
      <div className="flex items-center gap-1.5">
        <dt className="text-muted-foreground">Last success</dt>
        <dd>
          {status.lastSuccessAt ? (
            <time dateTime={status.lastSuccessAt}>{formatDateTime(status.lastSuccessAt)}</time>
          ) : (
            "never"
          )}
        </dd>
      </div>
      <div className="flex items-center gap-1.5">
        <dt className="text-muted-foreground">Backlog</dt>
        <dd className="tabular-nums">{view.backlog}</dd>
      </div>
      {status.lastError ? (
        <div className="grid gap-0.5 sm:col-span-3">
          <dt className="text-muted-foreground">
            Last error
            {status.lastErrorAt ? (
              <>
                {" "}
                <time dateTime={status.lastErrorAt}>{formatDateTime(status.lastErrorAt)}</time>
              </>
            ) : null}
            {status.nextAttemptAt && view.tone === "destructive" ? (
              <>
                {", next attempt "}
                <time dateTime={status.nextAttemptAt}>{formatDateTime(status.nextAttemptAt)}</time>
              </>
            ) : null}
          </dt>
          <dd className="font-mono text-xs text-destructive-subtle-foreground [overflow-wrap:anywhere]">
            {status.lastError}
          </dd>
        </div>
      ) : null}
    </dl>
  );
}

type TestState = ReturnType<typeof useTestStream>;

function TestOutcome({ test }: { test: TestState }) {
  if (test.isIdle || test.isPending) return <p className="sr-only" aria-live="polite" />;
  const status = test.data?.status;
  const text = test.isError
    ? errorSummary(test.error, "Could not send the test event")
    : test.data.delivered
      ? `Test event delivered${status ? ` (HTTP ${status})` : ""}.`
      : `Test event not delivered: ${test.data.error ?? (status ? `HTTP ${status}` : "no answer")}.`;
  const ok = test.isSuccess && test.data.delivered;
  return (
    <p
      aria-live="polite"
      className={
        ok
          ? "rounded-md bg-success-subtle px-3 py-2 text-[13px] text-success-subtle-foreground"
          : "rounded-md bg-destructive-subtle px-3 py-2 text-[13px] text-destructive-subtle-foreground [overflow-wrap:anywhere]"
      }
    >
      {text}
    </p>
  );
}

function DeleteStreamButton({ stream }: { stream: AuditLogStream }) {
  const remove = useDeleteStream();
  const url = stream.credentials.url;
  const deletion = {
    mutateAsync: () => remove.mutateAsync({ provider: stream.provider, streamId: stream.id }),
    reset: remove.reset,
    isPending: remove.isPending,
    error: remove.error,
  };
  return (
    <DeleteWithConfirm
      id={stream.id}
      remove={deletion}
      label={`Delete stream ${url}`}
      action="Delete stream"
      description={
        <p>
          <span className="font-mono text-xs font-medium text-foreground [overflow-wrap:anywhere]">{url}</span> stops
          receiving audit events. Events stay in Keyhold; those not yet delivered are not sent.
        </p>
      }
      done={{ title: "Stream deleted", detail: url }}
      failure="Could not delete the stream"
      deniedReason={undefined}
    />
  );
}

function StreamsSkeleton() {
  return (
    <div className="grid gap-3" aria-busy="true">
      <span className="sr-only" role="status">
        Loading the streams…
      </span>
      {[0, 1].map((row) => (
        <div key={row} className="grid gap-2 rounded-lg border border-border p-4">
          <Skeleton className="h-4 w-2/3" />
          <Skeleton className="h-4 w-1/3" />
        </div>
      ))}
    </div>
  );
}
