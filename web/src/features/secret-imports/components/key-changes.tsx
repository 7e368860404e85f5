import { type KeyChange, keySourceText } from "../change-preview";

/** The keys a change hands to another supplier, and from where each would be read: names and sources only. */
export function KeyChanges({ changes }: { changes: readonly KeyChange[] }) {
  return (
    <ul aria-label="Keys whose value would change" className="grid max-h-60 gap-1 overflow-y-auto text-[13px]">
      {changes.map(({ key, from, to }) => (
        <li key={key} className="min-w-0 break-words">
          <code className="font-mono font-medium text-foreground">{key}</code>: from{" "}
          <span className={to.kind === "none" ? "text-warning-subtle-foreground" : "font-mono text-foreground"}>
            {keySourceText(to)}
          </span>
          , not <span className="font-mono">{keySourceText(from)}</span>
        </li>
      ))}
    </ul>
  );
}
