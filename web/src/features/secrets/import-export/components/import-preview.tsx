import * as Tabs from "@radix-ui/react-tabs";
import { useVirtualizer } from "@tanstack/react-virtual";
import { Eye, EyeOff } from "lucide-react";
import { memo, useRef, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { type Revealed, useRevealed } from "@/hooks/use-remask";
import { cn } from "@/lib/cn";
import type { SecretFolder } from "../../api";
import { MaskedValue, RevealedValue } from "../../components/value-cell";
import type { InvalidLine } from "../import-entries";
import type { ImportPlan, PlannedSecret, PlanStatus } from "../import-plan";

type View = PlanStatus | "invalid";

const count = new Intl.NumberFormat("en");

const VIEWS: { view: View; label: string }[] = [
  { view: "new", label: "New" },
  { view: "changed", label: "Changed" },
  { view: "unchanged", label: "Unchanged" },
  { view: "invalid", label: "Invalid" },
];

const tone = { new: "success", changed: "warning", unchanged: "outline" } as const;

// On a phone the four tabs share the width, each count under its label, so none is out of sight.
const tabClasses = cn(
  "-mb-px inline-flex flex-col items-center justify-center gap-1 border-b-2 border-transparent px-1 py-1.5",
  "sm:h-9 sm:flex-row sm:gap-1.5 sm:py-0 text-[13px] font-medium text-muted-foreground",
  "outline-none transition-colors hover:text-foreground focus-visible:rounded-sm focus-visible:ring-2 focus-visible:ring-ring",
  "data-[state=active]:border-accent data-[state=active]:text-foreground",
);

/** The view opened first: the one that needs a look (changed, invalid), else what will be added. */
function firstView({ counts }: ImportPlan): View {
  if (counts.changed > 0) return "changed";
  if (counts.invalid > 0) return "invalid";
  if (counts.new > 0) return "new";
  return "unchanged";
}

/**
 * The import's preview: the file's keys sorted into new, changed and unchanged, and its invalid
 * lines with their reasons. Values are masked; revealing a changed key reads the folder's
 * value then (and only then) to show beside the file's.
 */
export function ImportPreview({ folder, plan }: { folder: SecretFolder; plan: ImportPlan }) {
  const [view, setView] = useState<View>(() => firstView(plan));
  // Revealed values mask again after 60 s, and when the tab is hidden or the window loses focus.
  const revealed = useRevealed<string>();
  return (
    <Tabs.Root value={view} onValueChange={(next) => setView(next as View)} className="grid min-w-0 gap-3">
      <Tabs.List aria-label="Import preview" className="grid grid-cols-4 border-b border-border sm:flex sm:gap-x-4">
        {VIEWS.map(({ view: id, label }) => (
          <Tabs.Trigger key={id} value={id} className={tabClasses}>
            {label}
            <Badge tone={id === "invalid" && plan.counts.invalid > 0 ? "destructive" : "neutral"}>
              {count.format(plan.counts[id])}
            </Badge>
          </Tabs.Trigger>
        ))}
      </Tabs.List>
      {VIEWS.map(({ view: id, label }) => (
        <Tabs.Content key={id} value={id} className="min-w-0 outline-none">
          {id === "invalid" ? (
            <InvalidList invalid={plan.invalid} />
          ) : (
            <PlannedList
              folder={folder}
              items={plan.items.filter((item) => item.status === id)}
              label={label}
              revealed={revealed}
            />
          )}
        </Tabs.Content>
      ))}
    </Tabs.Root>
  );
}

function Empty({ children }: { children: string }) {
  return (
    <p className="rounded-lg border border-border px-4 py-6 text-center text-sm text-muted-foreground">{children}</p>
  );
}

const EMPTY_TEXT: Record<PlanStatus, string> = {
  new: "No key of the file is new to this folder.",
  changed: "No key of the file changes a value here.",
  unchanged: "Every key of the file adds or changes something.",
};

interface PlannedListProps {
  folder: SecretFolder;
  items: PlannedSecret[];
  label: string;
  revealed: Revealed<string>;
}

function PlannedList({ folder, items, label, revealed }: PlannedListProps) {
  const scroller = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 44,
    overscan: 8,
    getItemKey: (index) => items[index]?.secretKey ?? index,
  });
  const status = items[0]?.status;
  if (items.length === 0) return <Empty>{EMPTY_TEXT[label.toLowerCase() as PlanStatus]}</Empty>;
  return (
    <div
      ref={scroller}
      className="max-h-[min(22rem,45dvh)] overflow-y-auto rounded-lg border border-border"
      role="list"
      aria-label={`${label} keys`}
      data-status={status}
    >
      <div className="relative w-full" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((row) => (
          <div
            key={row.key}
            ref={virtualizer.measureElement}
            data-index={row.index}
            role="listitem"
            className="absolute top-0 left-0 w-full border-b border-border last:border-0"
            style={{ transform: `translateY(${row.start}px)` }}
          >
            <PlannedRow
              folder={folder}
              item={items[row.index] as PlannedSecret}
              revealed={revealed.keys.has((items[row.index] as PlannedSecret).secretKey)}
              onToggle={revealed.toggle}
            />
          </div>
        ))}
      </div>
    </div>
  );
}

interface PlannedRowProps {
  folder: SecretFolder;
  item: PlannedSecret;
  revealed: boolean;
  onToggle: (secretKey: string) => void;
}

const PlannedRow = memo(function PlannedRow({ folder, item, revealed, onToggle }: PlannedRowProps) {
  const what =
    item.status === "changed"
      ? [item.valueChanged ? "value" : undefined, item.commentChanged ? "comment" : undefined]
          .filter(Boolean)
          .join(" and ")
      : undefined;
  return (
    <div className="grid gap-1.5 px-3 py-2">
      <div className="flex min-w-0 items-center gap-2">
        <span className="min-w-0 truncate font-mono text-[13px] font-medium" title={item.secretKey}>
          {item.secretKey}
        </span>
        <Badge tone={tone[item.status]}>{item.status}</Badge>
        {what ? <span className="hidden text-xs text-muted-foreground sm:inline">{what}</span> : null}
        <span className="ml-auto shrink-0 text-xs text-muted-foreground">line {item.line}</span>
        <Button
          variant="ghost"
          size="icon-sm"
          className="size-7 shrink-0"
          aria-label={`${revealed ? "Hide" : "Reveal"} ${item.status === "changed" ? "values" : "value"} of ${item.secretKey}`}
          aria-pressed={revealed}
          onClick={() => onToggle(item.secretKey)}
        >
          {revealed ? <EyeOff aria-hidden /> : <Eye aria-hidden />}
        </Button>
      </div>
      {revealed ? (
        <RevealedValues folder={folder} item={item} />
      ) : (
        <div className="pr-9">
          <MaskedValue />
        </div>
      )}
    </div>
  );
});

function FileValue({ value }: { value: string }) {
  return (
    <span className="block min-w-0 font-mono text-[13px] break-all whitespace-pre-wrap">
      {value === "" ? <span className="text-muted-foreground italic">empty</span> : value}
    </span>
  );
}

function RevealedValues({ folder, item }: { folder: SecretFolder; item: PlannedSecret }) {
  if (item.status !== "changed") return <FileValue value={item.secretValue} />;
  return (
    <dl className="grid grid-cols-[auto_minmax(0,1fr)] items-baseline gap-x-3 gap-y-1 text-[13px]">
      <dt className="text-muted-foreground">Now</dt>
      <dd className="min-w-0">
        {item.valueUnknown ? (
          <span className="text-muted-foreground">You may not read the current value.</span>
        ) : (
          <RevealedValue folder={folder} secretKey={item.secretKey} />
        )}
      </dd>
      <dt className="text-muted-foreground">File</dt>
      <dd className="min-w-0">
        <FileValue value={item.secretValue} />
      </dd>
      {item.commentChanged ? (
        <>
          <dt className="text-muted-foreground">Comment</dt>
          <dd className="min-w-0 whitespace-pre-wrap">{item.secretComment}</dd>
        </>
      ) : null}
    </dl>
  );
}

const REASONS: Record<InvalidLine["reason"], string> = {
  "bad-key": "bad key",
  duplicate: "duplicate",
  "unterminated-quote": "unterminated quote",
  "not-an-assignment": "not KEY=value",
  "text-after-quote": "text after quote",
  "unsupported-value": "unsupported value",
  "missing-value": "no value",
  syntax: "syntax error",
};

/** Past this many, the invalid lines are counted, not listed: a file that is not one of the formats fails on every line. */
const MAX_LISTED = 300;

function InvalidList({ invalid }: { invalid: InvalidLine[] }) {
  if (invalid.length === 0) return <Empty>Every line of the file could be read.</Empty>;
  const more = invalid.length - MAX_LISTED;
  return (
    <>
      <ul
        aria-label="Invalid lines"
        className="max-h-[min(22rem,45dvh)] divide-y divide-border overflow-y-auto rounded-lg border border-border"
      >
        {invalid.slice(0, MAX_LISTED).map((line) => (
          <li key={`${line.line}-${line.reason}`} className="grid gap-1 px-3 py-2 text-[13px]">
            <div className="flex min-w-0 flex-wrap items-center gap-2">
              <span className="font-medium">Line {line.line}</span>
              <Badge tone="destructive">{REASONS[line.reason]}</Badge>
              {line.secretKey ? <span className="min-w-0 truncate font-mono">{line.secretKey}</span> : null}
            </div>
            <p className="text-muted-foreground">{line.message}</p>
          </li>
        ))}
      </ul>
      {more > 0 ? (
        <p className="mt-2 text-[13px] text-muted-foreground">…and {count.format(more)} more invalid lines.</p>
      ) : null}
    </>
  );
}
