import type { AuditLog } from "@keyhold/contract";
import * as DialogPrimitive from "@radix-ui/react-dialog";
import { SearchX, X } from "lucide-react";
import type { ReactNode } from "react";
import { Dialog, overlayClasses } from "@/components/ui/dialog";
import { CopyButton } from "@/components/ui/copy-button";
import { EmptyState } from "@/components/ui/empty-state";
import { cn } from "@/lib/cn";
import { eventTypeLabel } from "../event-types";
import { actorOf, exactTime, placeOf } from "../event-view";
import { MetadataTree } from "./metadata-tree";

interface EventDrawerProps {
  /** The event id in the URL; undefined while none is open. */
  eventId: string | undefined;
  /** The event, when it is among those loaded. */
  event: AuditLog | undefined;
  /** Whether the list may still bring it (it is still loading). */
  loading: boolean;
  onClose: () => void;
  /** Where focus goes back to on closing (the drawer has no trigger of its own). */
  returnFocus: () => HTMLElement | null;
}

/** One event in full at the side of the page: every field, its metadata as a tree, the request id to copy. */
export function EventDrawer({ eventId, event, loading, onClose, returnFocus }: EventDrawerProps) {
  return (
    <Dialog open={eventId !== undefined} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className={overlayClasses} />
        <DialogPrimitive.Content
          aria-describedby={undefined}
          onCloseAutoFocus={(focusEvent) => {
            const target = returnFocus();
            if (!target?.isConnected) return;
            focusEvent.preventDefault();
            target.focus();
          }}
          className={cn(
            "fixed inset-y-0 right-0 z-50 flex w-full max-w-xl flex-col border-l border-border bg-card text-foreground shadow-2xl",
            "outline-none data-[state=open]:animate-fade-in",
          )}
        >
          <header className="flex items-start justify-between gap-4 border-b border-border px-6 py-5">
            <div className="grid min-w-0 gap-1">
              <DialogPrimitive.Title className="truncate text-base font-semibold tracking-tight">
                {event ? eventTypeLabel(event.event.type) : "Audit event"}
              </DialogPrimitive.Title>
              {event ? <p className="truncate font-mono text-xs text-muted-foreground">{event.event.type}</p> : null}
            </div>
            <DialogPrimitive.Close
              className="rounded-md p-1 text-muted-foreground transition-colors outline-none hover:bg-hover hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring"
              aria-label="Close"
            >
              <X aria-hidden className="size-4" />
            </DialogPrimitive.Close>
          </header>
          <div className="min-h-0 flex-1 overflow-y-auto px-6 py-5">
            {event ? (
              <EventDetails event={event} />
            ) : loading ? (
              <p className="text-sm text-muted-foreground" role="status">
                Loading the event…
              </p>
            ) : (
              <EmptyState
                icon={SearchX}
                title="This event is not in the list"
                description={
                  <>
                    Event <span className="font-mono text-xs break-all">{eventId}</span> is not among the events of this
                    window and these filters. Widen the dates or clear filters to find it.
                  </>
                }
              />
            )}
          </div>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </Dialog>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="grid gap-2 border-b border-border pb-5 last:border-0 [&:not(:first-child)]:pt-5">
      <h3 className="text-xs font-medium tracking-wide text-muted-foreground uppercase">{title}</h3>
      {children}
    </section>
  );
}

function Row({ term, children, copy }: { term: string; children: ReactNode; copy?: string | null | undefined }) {
  return (
    <div className="grid min-w-0 items-center gap-x-4 gap-y-0.5 sm:grid-cols-[8.5rem_minmax(0,1fr)]">
      <dt className="text-[13px] text-muted-foreground">{term}</dt>
      <dd className="flex min-w-0 items-center gap-1 text-[13px]">
        <span className="min-w-0 break-words">{children}</span>
        {copy ? <CopyButton value={copy} label={`Copy ${term.toLowerCase()}`} /> : null}
      </dd>
    </div>
  );
}

const mono = "font-mono text-xs break-all";
const none = <span className="text-muted-foreground">—</span>;

function EventDetails({ event }: { event: AuditLog }) {
  const actor = actorOf(event);
  const place = placeOf(event);
  return (
    <div className="grid">
      <Section title="Event">
        <dl className="grid gap-2">
          <Row term="Time">
            <time dateTime={event.createdAt}>{exactTime(event.createdAt)}</time>
          </Row>
          <Row term="Event ID" copy={event.id}>
            <span className={mono}>{event.id}</span>
          </Row>
          <Row term="Request ID" copy={event.requestId}>
            {event.requestId ? <span className={mono}>{event.requestId}</span> : none}
          </Row>
          <Row term="Expires">
            <time dateTime={event.expiresAt}>{exactTime(event.expiresAt)}</time>
          </Row>
        </dl>
      </Section>
      <Section title="Actor">
        <dl className="grid gap-2">
          <Row term="Type">{actor.type}</Row>
          <Row term="Name">{actor.name ?? none}</Row>
          <Row term="ID" copy={actor.id}>
            {actor.id ? <span className={mono}>{actor.id}</span> : none}
          </Row>
          {actor.email ? <Row term="E-mail">{actor.email}</Row> : null}
          {actor.authMethod ? <Row term="Auth method">{actor.authMethod}</Row> : null}
          {actor.claims.map(([key, value]) => (
            <Row key={key} term={`Claim ${key}`}>
              <span className={mono}>{value}</span>
            </Row>
          ))}
        </dl>
      </Section>
      <Section title="Where">
        <dl className="grid gap-2">
          <Row term="Project" copy={event.projectId}>
            {event.projectName ?? (event.projectId ? <span className={mono}>{event.projectId}</span> : "Organization")}
          </Row>
          {place.environment ? <Row term="Environment">{<span className={mono}>{place.environment}</span>}</Row> : null}
          {place.secretPath ? <Row term="Secret path">{<span className={mono}>{place.secretPath}</span>}</Row> : null}
          {place.secretKey ? <Row term="Secret key">{<span className={mono}>{place.secretKey}</span>}</Row> : null}
          <Row term="IP address">{event.ipAddress ? <span className={mono}>{event.ipAddress}</span> : none}</Row>
          <Row term="User agent type">{event.userAgentType ?? none}</Row>
          <Row term="User agent">{event.userAgent ? <span className={mono}>{event.userAgent}</span> : none}</Row>
        </dl>
      </Section>
      <Section title="Event metadata">
        <MetadataTree value={event.event.metadata} label="Event metadata" />
      </Section>
      <Section title="Actor metadata">
        <MetadataTree value={event.actor.metadata} label="Actor metadata" />
      </Section>
    </div>
  );
}
