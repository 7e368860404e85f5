import { useQuery } from "@tanstack/react-query";
import { CalendarClock, ChevronDown, ListFilter, X } from "lucide-react";
import { type ReactNode, useState } from "react";
import { Button } from "@/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { Popover, PopoverContent, PopoverTrigger } from "@/components/ui/popover";
import { cn } from "@/lib/cn";
import { type AuditFilter, type AuditWindow, DATE_PRESETS, hasFilters, type MetadataMatch } from "../audit-filter";
import { eventTypeLabel } from "../event-types";
import { auditQueries } from "../queries";
import {
  DateEditor,
  EnvironmentEditor,
  EventTypeEditor,
  IdentityEditor,
  metadataProblem,
  ProjectEditor,
  parseMetadata,
  TextEditor,
  UserAgentEditor,
  userAgentLabel,
} from "./filter-editors";

type Kind =
  | "date"
  | "eventType"
  | "identity"
  | "project"
  | "environment"
  | "secretPath"
  | "secretKey"
  | "userAgentType"
  | "eventMetadata";

const KIND_LABELS: Record<Exclude<Kind, "date">, string> = {
  eventType: "Event type",
  identity: "Actor",
  project: "Project",
  environment: "Environment",
  secretPath: "Secret path",
  secretKey: "Secret key",
  userAgentType: "User agent",
  eventMetadata: "Metadata",
};
const NEEDS_PROJECT: ReadonlySet<Kind> = new Set(["environment", "secretPath", "secretKey"]);

/** Events about an identity carry its id in their metadata. */
const ABOUT_KEY = "identityId";

interface FilterBarProps {
  filter: AuditFilter;
  window: AuditWindow;
  update: (patch: Partial<AuditFilter>) => void;
  clearAll: () => void;
  /** Put at the end of the bar (the export menu). */
  actions?: ReactNode;
}

/** Identity filter: events it caused (`actor`), or events about it (metadata `identityId`). */
function identityOf(filter: AuditFilter): { id: string; mode: "by" | "about" } | undefined {
  if (filter.actor) return { id: filter.actor, mode: "by" };
  const about = filter.eventMetadata.find((match) => match.key === ABOUT_KEY);
  return about?.value ? { id: about.value, mode: "about" } : undefined;
}
const otherMetadata = (filter: AuditFilter) => filter.eventMetadata.filter((match) => match.key !== ABOUT_KEY);

/**
 * The filters as chips: each one set shows its value and opens its editor; × clears it. "Add
 * filter" offers the others; "Clear all" clears every filter but the dates.
 */
export function FilterBar({ filter, window, update, clearAll, actions }: FilterBarProps) {
  const [open, setOpen] = useState<Kind>();
  const identity = identityOf(filter);
  const metadata = otherMetadata(filter);
  const shown: Record<Exclude<Kind, "date">, boolean> = {
    eventType: filter.eventTypes.length > 0,
    identity: identity !== undefined,
    project: filter.projectId !== undefined,
    environment: filter.environment !== undefined,
    secretPath: filter.secretPath !== undefined,
    secretKey: filter.secretKey !== undefined,
    userAgentType: filter.userAgentType !== undefined,
    eventMetadata: metadata.length > 0,
  };
  const visible = (kind: Exclude<Kind, "date">) => shown[kind] || open === kind;
  const addable = (Object.keys(KIND_LABELS) as Exclude<Kind, "date">[]).filter((kind) => !visible(kind));
  const chip = (kind: Kind) => ({
    open: open === kind,
    onOpenChange: (next: boolean) => setOpen(next ? kind : undefined),
  });
  const close = () => setOpen(undefined);

  const setIdentity = (id: string | undefined, mode: "by" | "about") =>
    update({
      actor: mode === "by" ? id : undefined,
      actorType: mode === "by" && id ? "identity" : undefined,
      eventMetadata: [...metadata, ...(mode === "about" && id ? [{ key: ABOUT_KEY, value: id }] : [])],
    });

  return (
    <div className="flex flex-wrap items-center gap-2" role="group" aria-label="Filters">
      <Chip
        {...chip("date")}
        icon={<CalendarClock aria-hidden />}
        label="Dates"
        value={dateText(filter, window)}
        contentClassName="w-72"
      >
        <DateEditor
          filter={filter}
          onChange={(patch) => {
            update(patch);
            close();
          }}
        />
      </Chip>
      {visible("eventType") ? (
        <Chip
          {...chip("eventType")}
          label="Event"
          value={
            filter.eventTypes.length === 0
              ? "any"
              : filter.eventTypes.length === 1
                ? eventTypeLabel(filter.eventTypes[0] as string)
                : `${eventTypeLabel(filter.eventTypes[0] as string)} +${filter.eventTypes.length - 1}`
          }
          onClear={shown.eventType ? () => update({ eventTypes: [] }) : undefined}
        >
          <EventTypeEditor value={filter.eventTypes} onChange={(eventTypes) => update({ eventTypes })} />
        </Chip>
      ) : null}
      {visible("identity") ? (
        <Chip
          {...chip("identity")}
          label={identity?.mode === "about" ? "About" : "Actor"}
          value={identity ? <IdentityLabel identityId={identity.id} /> : "any"}
          onClear={identity ? () => setIdentity(undefined, identity.mode) : undefined}
        >
          <div className="grid gap-3">
            <fieldset className="grid grid-cols-2 gap-1.5">
              <legend className="sr-only">Which events of the identity</legend>
              {(["by", "about"] as const).map((mode) => {
                const current = (identity?.mode ?? "by") === mode;
                return (
                  <Button
                    key={mode}
                    size="sm"
                    variant={current ? "primary" : "secondary"}
                    aria-pressed={current}
                    onClick={() => (identity ? setIdentity(identity.id, mode) : undefined)}
                    disabled={!identity && mode === "about"}
                  >
                    {mode === "by" ? "Caused by it" : "About it"}
                  </Button>
                );
              })}
            </fieldset>
            <IdentityEditor
              value={identity?.id}
              onChange={(id) => {
                setIdentity(id, identity?.mode ?? "by");
                close();
              }}
            />
          </div>
        </Chip>
      ) : null}
      {visible("project") ? (
        <Chip
          {...chip("project")}
          label="Project"
          value={filter.projectId ? <ProjectLabel projectId={filter.projectId} /> : "any"}
          onClear={
            filter.projectId
              ? () =>
                  update({ projectId: undefined, environment: undefined, secretPath: undefined, secretKey: undefined })
              : undefined
          }
        >
          <ProjectEditor
            value={filter.projectId}
            onChange={(projectId) => {
              // Another project's environments and folders are other places.
              update(
                projectId === filter.projectId
                  ? { projectId }
                  : { projectId, environment: undefined, secretPath: undefined, secretKey: undefined },
              );
              close();
            }}
          />
        </Chip>
      ) : null}
      {filter.projectId && visible("environment") ? (
        <Chip
          {...chip("environment")}
          label="Environment"
          value={filter.environment ?? "any"}
          mono
          onClear={filter.environment ? () => update({ environment: undefined }) : undefined}
        >
          <EnvironmentEditor
            projectId={filter.projectId}
            value={filter.environment}
            onChange={(environment) => {
              update({ environment });
              close();
            }}
          />
        </Chip>
      ) : null}
      {filter.projectId && visible("secretPath") ? (
        <Chip
          {...chip("secretPath")}
          label="Path"
          value={filter.secretPath ?? "any"}
          mono
          onClear={filter.secretPath ? () => update({ secretPath: undefined }) : undefined}
        >
          <TextEditor
            label="Secret path"
            value={filter.secretPath}
            placeholder="/"
            hint="The folder, such as / or /app/db."
            check={(text) => (text.startsWith("/") ? undefined : "A path starts with /.")}
            onChange={(secretPath) => {
              update({ secretPath });
              close();
            }}
          />
        </Chip>
      ) : null}
      {filter.projectId && visible("secretKey") ? (
        <Chip
          {...chip("secretKey")}
          label="Key"
          value={filter.secretKey ?? "any"}
          mono
          onClear={filter.secretKey ? () => update({ secretKey: undefined }) : undefined}
        >
          <TextEditor
            label="Secret key"
            value={filter.secretKey}
            placeholder="DATABASE_URL"
            hint="The secret's key, exactly."
            onChange={(secretKey) => {
              update({ secretKey });
              close();
            }}
          />
        </Chip>
      ) : null}
      {visible("userAgentType") ? (
        <Chip
          {...chip("userAgentType")}
          label="User agent"
          value={filter.userAgentType ? userAgentLabel(filter.userAgentType) : "any"}
          onClear={filter.userAgentType ? () => update({ userAgentType: undefined }) : undefined}
        >
          <UserAgentEditor
            value={filter.userAgentType}
            onChange={(userAgentType) => {
              update({ userAgentType });
              close();
            }}
          />
        </Chip>
      ) : null}
      {visible("eventMetadata") ? (
        <Chip
          {...chip("eventMetadata")}
          label="Metadata"
          value={metadata.length > 0 ? metadataText(metadata) : "any"}
          mono
          onClear={
            metadata.length > 0
              ? () => update({ eventMetadata: filter.eventMetadata.filter((m) => m.key === ABOUT_KEY) })
              : undefined
          }
        >
          <TextEditor
            label="Event metadata"
            value={metadataText(metadata) || undefined}
            placeholder="roleId=…"
            hint="key=value pairs the event's metadata must hold, separated by commas."
            check={metadataProblem}
            onChange={(text) => {
              update({
                eventMetadata: [
                  ...filter.eventMetadata.filter((m) => m.key === ABOUT_KEY),
                  ...parseMetadata(text).filter((m) => m.key !== ABOUT_KEY),
                ],
              });
              close();
            }}
          />
        </Chip>
      ) : null}
      {addable.length > 0 ? (
        <DropdownMenu>
          <DropdownMenuTrigger asChild>
            <Button size="sm" variant="ghost" className="rounded-full">
              <ListFilter aria-hidden />
              Add filter
            </Button>
          </DropdownMenuTrigger>
          <DropdownMenuContent align="start" onCloseAutoFocus={(event) => event.preventDefault()}>
            <DropdownMenuLabel>Filter by</DropdownMenuLabel>
            {addable.map((kind) => {
              const blocked = NEEDS_PROJECT.has(kind) && !filter.projectId;
              return (
                <DropdownMenuItem key={kind} disabled={blocked} onSelect={() => setOpen(kind)}>
                  {KIND_LABELS[kind]}
                  {blocked ? <span className="ml-auto text-xs text-muted-foreground">pick a project first</span> : null}
                </DropdownMenuItem>
              );
            })}
          </DropdownMenuContent>
        </DropdownMenu>
      ) : null}
      {hasFilters(filter) ? (
        <Button size="sm" variant="ghost" className="text-muted-foreground" onClick={clearAll}>
          Clear all
        </Button>
      ) : null}
      {actions ? <div className="ml-auto flex items-center gap-2">{actions}</div> : null}
    </div>
  );
}

const metadataText = (matches: readonly MetadataMatch[]) => matches.map((m) => `${m.key}=${m.value}`).join(", ");

const shortDate = new Intl.DateTimeFormat(undefined, {
  month: "short",
  day: "numeric",
  hour: "2-digit",
  minute: "2-digit",
});

function dateText(filter: AuditFilter, window: AuditWindow): string {
  if (filter.range !== "custom") return DATE_PRESETS[filter.range].label;
  const from = shortDate.format(new Date(window.startDate));
  return filter.to ? `${from} – ${shortDate.format(new Date(filter.to))}` : `Since ${from}`;
}

function IdentityLabel({ identityId }: { identityId: string }) {
  const query = useQuery(auditQueries.identity(identityId));
  return query.data ? (
    <>{query.data.identity.name}</>
  ) : (
    <span className="font-mono text-xs">{identityId.slice(0, 8)}</span>
  );
}

function ProjectLabel({ projectId }: { projectId: string }) {
  const query = useQuery(auditQueries.projects());
  const project = query.data?.find((p) => p.id === projectId);
  return project ? <>{project.name}</> : <span className="font-mono text-xs">{projectId.slice(0, 8)}</span>;
}

interface ChipProps {
  label: string;
  value: ReactNode;
  icon?: ReactNode;
  mono?: boolean;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onClear?: (() => void) | undefined;
  contentClassName?: string;
  children: ReactNode;
}

function Chip({ label, value, icon, mono, open, onOpenChange, onClear, contentClassName, children }: ChipProps) {
  return (
    <Popover open={open} onOpenChange={onOpenChange}>
      <div
        className={cn(
          "inline-flex h-8 max-w-full items-center rounded-full border bg-card text-[13px] shadow-xs",
          onClear ? "border-accent/40" : "border-border",
        )}
      >
        <PopoverTrigger
          className={cn(
            "inline-flex h-full min-w-0 items-center gap-1.5 rounded-full pl-3 outline-none focus-visible:ring-2 focus-visible:ring-ring",
            "[&_svg]:size-3.5 [&_svg]:shrink-0 [&_svg]:text-muted-foreground",
            onClear ? "pr-1.5" : "pr-2.5",
          )}
        >
          {icon}
          <span className="text-muted-foreground">{label}:</span>
          <span className={cn("min-w-0 max-w-48 truncate font-medium", mono && "font-mono text-xs")}>{value}</span>
          <ChevronDown aria-hidden />
        </PopoverTrigger>
        {onClear ? (
          <button
            type="button"
            onClick={onClear}
            aria-label={`Clear the ${label.toLowerCase()} filter`}
            className="mr-1 inline-flex size-6 items-center justify-center rounded-full text-muted-foreground outline-none hover:bg-hover hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring"
          >
            <X aria-hidden className="size-3.5" />
          </button>
        ) : null}
      </div>
      <PopoverContent className={contentClassName} aria-label={`${label} filter`}>
        {children}
      </PopoverContent>
    </Popover>
  );
}
