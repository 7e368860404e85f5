/** A JSON value as nested definition lists: keys on the left, scalars in monospace, objects indented. */
export function MetadataTree({ value, label }: { value: unknown; label: string }) {
  if (!isRecord(value) || Object.keys(value).length === 0) {
    return <p className="text-[13px] text-muted-foreground">No {label.toLowerCase()}.</p>;
  }
  return <Entries record={value} depth={0} />;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function Entries({ record, depth }: { record: Record<string, unknown> | unknown[]; depth: number }) {
  const entries = Array.isArray(record)
    ? record.map((item, index) => [String(index), item] as const)
    : Object.entries(record);
  return (
    <dl className={depth === 0 ? "grid gap-1.5" : "mt-1 grid gap-1.5 border-l border-border pl-3"}>
      {entries.map(([key, item]) => (
        <div key={key} className="grid min-w-0 gap-x-3 sm:grid-cols-[minmax(7rem,auto)_minmax(0,1fr)]">
          <dt className="truncate font-mono text-xs text-muted-foreground">{key}</dt>
          <dd className="min-w-0">
            <Value value={item} depth={depth} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

function Value({ value, depth }: { value: unknown; depth: number }) {
  if (value === null || value === undefined)
    return <span className="font-mono text-xs text-muted-foreground">null</span>;
  if (typeof value === "object") {
    const empty = Array.isArray(value) ? value.length === 0 : Object.keys(value).length === 0;
    if (empty)
      return <span className="font-mono text-xs text-muted-foreground">{Array.isArray(value) ? "[]" : "{}"}</span>;
    return <Entries record={value as Record<string, unknown>} depth={depth + 1} />;
  }
  return <span className="font-mono text-xs break-all whitespace-pre-wrap">{String(value)}</span>;
}
