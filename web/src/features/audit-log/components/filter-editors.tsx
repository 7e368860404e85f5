import { USER_AGENT_TYPES, type UserAgentType } from "@keyhold/contract";
import { AUDIT_EVENT_TYPES } from "@keyhold/contract/audit-event-types";
import { useQuery } from "@tanstack/react-query";
import { Command } from "cmdk";
import { Check, Search } from "lucide-react";
import { type FormEvent, type ReactNode, useMemo, useState } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { useDebounced } from "@/hooks/use-debounced";
import { cn } from "@/lib/cn";
import { errorSummary } from "@/lib/describe-error";
import {
  type AuditFilter,
  DATE_PRESETS,
  type DatePreset,
  MAX_WINDOW_DAYS,
  readMetadata,
  windowProblem,
  writeMetadata,
} from "../audit-filter";
import { EVENT_GROUPS, eventTypeOptions, PRODUCED_EVENT_TYPES } from "../event-types";
import { auditQueries } from "../queries";

const inputClasses = cn(
  "flex h-9 w-full rounded-md border border-input bg-card pr-9 pl-9 text-sm shadow-xs outline-none",
  "placeholder:text-muted-foreground focus-visible:border-ring focus-visible:ring-3 focus-visible:ring-ring/25",
);
const itemClasses = cn(
  "flex cursor-default items-center gap-2 rounded-md px-2 py-1.5 text-sm outline-none",
  "data-[selected=true]:bg-hover data-[disabled=true]:opacity-60",
);
const listClasses = "max-h-72 overflow-y-auto overscroll-contain";

interface SearchBoxProps {
  value: string;
  onChange: (value: string) => void;
  placeholder: string;
  busy?: boolean;
}

function SearchBox({ value, onChange, placeholder, busy }: SearchBoxProps) {
  return (
    <div className="relative">
      <Search
        aria-hidden
        className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
      />
      <Command.Input value={value} onValueChange={onChange} placeholder={placeholder} className={inputClasses} />
      {busy ? <Spinner className="absolute top-1/2 right-3 -translate-y-1/2" /> : null}
    </div>
  );
}

function Tick({ on }: { on: boolean }) {
  return <Check aria-hidden className={cn("size-4 shrink-0", on ? "text-accent-text" : "invisible")} />;
}

/** Event types to match (any of them), grouped and searchable; the types Keyhold writes come first. */
export function EventTypeEditor({
  value,
  onChange,
}: {
  value: readonly string[];
  onChange: (types: string[]) => void;
}) {
  const options = useMemo(() => eventTypeOptions(AUDIT_EVENT_TYPES, PRODUCED_EVENT_TYPES), []);
  const [search, setSearch] = useState("");
  // Clicks follow each other faster than the address changes: each toggles the picker's own list.
  const [picked, setPicked] = useState(value);
  const [seen, setSeen] = useState(value.join(","));
  if (seen !== value.join(",")) {
    setSeen(value.join(","));
    setPicked(value);
  }
  const chosen = new Set(picked);
  const toggle = (type: string) => {
    const next = chosen.has(type) ? picked.filter((t) => t !== type) : [...picked, type];
    setPicked(next);
    onChange(next);
  };
  return (
    <Command label="Event types" className="grid gap-2">
      <SearchBox value={search} onChange={setSearch} placeholder="Search event types" />
      <Command.List className={listClasses}>
        <Command.Empty className="px-2 py-3 text-[13px] text-muted-foreground">No event type matches.</Command.Empty>
        {EVENT_GROUPS.map((group) => {
          const inGroup = options.filter((option) => option.group === group);
          if (inGroup.length === 0) return null;
          return (
            <Command.Group
              key={group}
              heading={group}
              className="[&_[cmdk-group-heading]]:px-2 [&_[cmdk-group-heading]]:pt-2 [&_[cmdk-group-heading]]:pb-1 [&_[cmdk-group-heading]]:text-xs [&_[cmdk-group-heading]]:font-medium [&_[cmdk-group-heading]]:text-muted-foreground"
            >
              {inGroup.map((option) => (
                <Command.Item
                  key={option.type}
                  value={option.type}
                  keywords={[option.label]}
                  onSelect={() => toggle(option.type)}
                  className={itemClasses}
                  aria-checked={chosen.has(option.type)}
                  role="option"
                >
                  <Tick on={chosen.has(option.type)} />
                  <span className="min-w-0 flex-1 truncate">{option.label}</span>
                  {option.produced ? null : (
                    <span
                      className="shrink-0 text-[11px] text-muted-foreground"
                      title="Keyhold does not write this type; an Infisical server may"
                    >
                      Infisical
                    </span>
                  )}
                </Command.Item>
              ))}
            </Command.Group>
          );
        })}
      </Command.List>
      {picked.length > 0 ? (
        <div className="flex items-center justify-between border-t border-border pt-2 text-[13px] text-muted-foreground">
          {picked.length} selected
          <Button
            size="sm"
            variant="ghost"
            onClick={() => {
              setPicked([]);
              onChange([]);
            }}
          >
            Clear
          </Button>
        </div>
      ) : null}
    </Command>
  );
}

/** An identity of the organisation, searched by name on the server. */
export function IdentityEditor({ value, onChange }: { value: string | undefined; onChange: (id: string) => void }) {
  const [search, setSearch] = useState("");
  const settled = useDebounced(search.trim(), 250);
  const query = useQuery(auditQueries.identities(settled));
  return (
    <Command shouldFilter={false} label="Identity" className="grid gap-2">
      <SearchBox
        value={search}
        onChange={setSearch}
        placeholder="Search identities by name"
        busy={query.isFetching || settled !== search.trim()}
      />
      <Command.List className={listClasses}>
        {query.isError ? (
          <p role="alert" className="px-2 py-3 text-[13px] text-destructive-subtle-foreground">
            {errorSummary(query.error, "Could not search identities")}
          </p>
        ) : query.isPending ? (
          <Command.Loading>
            <p className="px-2 py-3 text-[13px] text-muted-foreground">Loading identities…</p>
          </Command.Loading>
        ) : (
          <Command.Empty className="px-2 py-3 text-[13px] text-muted-foreground">
            {settled ? `No identity's name contains “${settled}”.` : "This organization has no identities."}
          </Command.Empty>
        )}
        {(query.data ?? []).map((identity) => (
          <Command.Item
            key={identity.id}
            value={identity.id}
            onSelect={() => onChange(identity.id)}
            className={itemClasses}
          >
            <Tick on={identity.id === value} />
            <span className="min-w-0 flex-1 truncate">{identity.name}</span>
            <span className="shrink-0 font-mono text-[11px] text-muted-foreground">{identity.id.slice(0, 8)}</span>
          </Command.Item>
        ))}
      </Command.List>
    </Command>
  );
}

/** One choice from a short list (projects, environments, user agent types). */
function ChoiceList({
  label,
  choices,
  value,
  onChange,
  state,
}: {
  label: string;
  choices: { value: string; label: string; hint?: string }[];
  value: string | undefined;
  onChange: (value: string) => void;
  state?: ReactNode;
}) {
  const [search, setSearch] = useState("");
  return (
    <Command label={label} className="grid gap-2">
      {choices.length > 6 ? (
        <SearchBox value={search} onChange={setSearch} placeholder={`Search ${label.toLowerCase()}`} />
      ) : null}
      <Command.List className={listClasses}>
        {state ?? (
          <Command.Empty className="px-2 py-3 text-[13px] text-muted-foreground">Nothing matches.</Command.Empty>
        )}
        {choices.map((choice) => (
          <Command.Item
            key={choice.value}
            value={choice.value}
            keywords={[choice.label]}
            onSelect={() => onChange(choice.value)}
            className={itemClasses}
          >
            <Tick on={choice.value === value} />
            <span className="min-w-0 flex-1 truncate">{choice.label}</span>
            {choice.hint ? (
              <span className="shrink-0 font-mono text-[11px] text-muted-foreground">{choice.hint}</span>
            ) : null}
          </Command.Item>
        ))}
      </Command.List>
    </Command>
  );
}

export function ProjectEditor({ value, onChange }: { value: string | undefined; onChange: (id: string) => void }) {
  const query = useQuery(auditQueries.projects());
  return (
    <ChoiceList
      label="Projects"
      value={value}
      onChange={onChange}
      choices={(query.data ?? []).map((project) => ({ value: project.id, label: project.name, hint: project.slug }))}
      state={
        query.isPending ? (
          <p className="px-2 py-3 text-[13px] text-muted-foreground">Loading projects…</p>
        ) : query.isError ? (
          <p role="alert" className="px-2 py-3 text-[13px] text-destructive-subtle-foreground">
            {errorSummary(query.error, "Could not list projects")}
          </p>
        ) : undefined
      }
    />
  );
}

export function EnvironmentEditor({
  projectId,
  value,
  onChange,
}: {
  projectId: string;
  value: string | undefined;
  onChange: (slug: string) => void;
}) {
  const query = useQuery(auditQueries.project(projectId));
  return (
    <ChoiceList
      label="Environments"
      value={value}
      onChange={onChange}
      choices={(query.data?.environments ?? []).map((env) => ({ value: env.slug, label: env.name, hint: env.slug }))}
      state={
        query.isPending ? (
          <p className="px-2 py-3 text-[13px] text-muted-foreground">Loading environments…</p>
        ) : query.isError ? (
          <p role="alert" className="px-2 py-3 text-[13px] text-destructive-subtle-foreground">
            {errorSummary(query.error, "Could not read the project")}
          </p>
        ) : undefined
      }
    />
  );
}

export function UserAgentEditor({
  value,
  onChange,
}: {
  value: string | undefined;
  onChange: (type: UserAgentType) => void;
}) {
  return (
    <ChoiceList
      label="User agent types"
      value={value}
      onChange={(type) => onChange(type as UserAgentType)}
      choices={USER_AGENT_TYPES.map((type) => ({ value: type, label: userAgentLabel(type) }))}
    />
  );
}

const AGENTS: Record<string, string> = {
  web: "Web browser",
  cli: "CLI",
  "k8-operator": "Kubernetes operator",
  terraform: "Terraform",
  other: "Other",
  InfisicalPythonSDK: "Python SDK",
  InfisicalNodeSDK: "Node.js SDK",
};
export const userAgentLabel = (type: string) => AGENTS[type] ?? type;

/** A line of text applied with Enter or the button (a folder path, a key, metadata pairs). */
export function TextEditor({
  label,
  value,
  onChange,
  placeholder,
  hint,
  check,
}: {
  label: string;
  value: string | undefined;
  onChange: (value: string | undefined) => void;
  placeholder: string;
  hint?: string;
  check?: (value: string) => string | undefined;
}) {
  const [text, setText] = useState(value ?? "");
  const problem = text.trim() && check ? check(text.trim()) : undefined;
  function submit(event: FormEvent) {
    event.preventDefault();
    if (problem) return;
    onChange(text.trim() || undefined);
  }
  const id = `audit-filter-${label.toLowerCase().replaceAll(" ", "-")}`;
  return (
    <form onSubmit={submit} className="grid gap-2">
      <label htmlFor={id} className="text-[13px] font-medium">
        {label}
      </label>
      <Input
        id={id}
        value={text}
        onChange={(event) => setText(event.target.value)}
        placeholder={placeholder}
        className="font-mono text-[13px]"
        autoComplete="off"
        spellCheck={false}
        aria-invalid={problem ? true : undefined}
        aria-describedby={`${id}-hint`}
      />
      <p
        id={`${id}-hint`}
        className={cn("text-xs", problem ? "text-destructive-subtle-foreground" : "text-muted-foreground")}
      >
        {problem ?? hint}
      </p>
      <div className="flex justify-end">
        <Button type="submit" size="sm" variant="primary" disabled={problem !== undefined}>
          Apply
        </Button>
      </div>
    </form>
  );
}

export function metadataProblem(text: string): string | undefined {
  const pairs = text.split(",");
  return pairs.every((pair) => pair.indexOf("=") > 0) ? undefined : "Write key=value pairs, separated by commas.";
}
export const metadataText = (filter: AuditFilter) => writeMetadata(filter.eventMetadata) || undefined;
export const parseMetadata = (text: string | undefined) => readMetadata(text);

/** `datetime-local` text for an ISO time, in the browser's zone. */
function localInput(iso: string | undefined): string {
  if (!iso) return "";
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
const fromLocal = (text: string) => (text ? new Date(text).toISOString() : undefined);

/** A preset window, or a custom one from a start to an end (open: until now). */
export function DateEditor({
  filter,
  onChange,
}: {
  filter: AuditFilter;
  onChange: (patch: Pick<AuditFilter, "range" | "from" | "to">) => void;
}) {
  const [from, setFrom] = useState(localInput(filter.range === "custom" ? filter.from : undefined));
  const [to, setTo] = useState(localInput(filter.range === "custom" ? filter.to : undefined));
  const start = fromLocal(from);
  const end = fromLocal(to);
  const problem = start
    ? windowProblem({ startDate: start, endDate: end ?? new Date().toISOString() })
    : from || to
      ? "Pick a start."
      : undefined;
  return (
    <div className="grid gap-3">
      <div role="group" aria-label="Presets" className="grid grid-cols-2 gap-1.5">
        {(Object.keys(DATE_PRESETS) as DatePreset[]).map((preset) => (
          <Button
            key={preset}
            size="sm"
            variant={filter.range === preset ? "primary" : "secondary"}
            aria-pressed={filter.range === preset}
            onClick={() => onChange({ range: preset, from: undefined, to: undefined })}
          >
            {DATE_PRESETS[preset].label}
          </Button>
        ))}
      </div>
      <form
        className="grid gap-2 border-t border-border pt-3"
        onSubmit={(event) => {
          event.preventDefault();
          if (start && !problem) onChange({ range: "custom", from: start, to: end });
        }}
      >
        <p className="text-[13px] font-medium">Custom</p>
        <label className="grid gap-1 text-xs text-muted-foreground">
          From
          <Input type="datetime-local" value={from} onChange={(event) => setFrom(event.target.value)} />
        </label>
        <label className="grid gap-1 text-xs text-muted-foreground">
          To (empty: now)
          <Input type="datetime-local" value={to} onChange={(event) => setTo(event.target.value)} />
        </label>
        <p
          className={cn("text-xs", problem ? "text-destructive-subtle-foreground" : "text-muted-foreground")}
          role={problem ? "alert" : undefined}
        >
          {problem ??
            `At most ${MAX_WINDOW_DAYS} days. Times are your browser's (${Intl.DateTimeFormat().resolvedOptions().timeZone}).`}
        </p>
        <div className="flex justify-end">
          <Button type="submit" size="sm" variant="primary" disabled={!start || problem !== undefined}>
            Apply
          </Button>
        </div>
      </form>
    </div>
  );
}
