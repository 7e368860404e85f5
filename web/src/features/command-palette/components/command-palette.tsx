import { Command } from "cmdk";
import {
  Folder,
  FolderKanban,
  KeyRound,
  Layers,
  LayoutDashboard,
  type LucideIcon,
  Plus,
  Search,
  ShieldCheck,
  UsersRound,
} from "lucide-react";
import { useRef, useState } from "react";
import { useNavigate } from "react-router";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogTitle } from "@/components/ui/dialog";
import { Spinner } from "@/components/ui/spinner";
import { cn } from "@/lib/cn";
import { type PaletteGroup, type PaletteItem, searchItems } from "../palette-items";
import { type PaletteFailure, usePaletteItems } from "../use-palette-items";

/** How many results of each group are listed; typing more narrows them. */
const PER_GROUP = 8;

const groupIcons: Record<PaletteGroup, LucideIcon> = {
  Pages: LayoutDashboard,
  Actions: Plus,
  Projects: FolderKanban,
  Environments: Layers,
  Folders: Folder,
  Secrets: KeyRound,
  Roles: ShieldCheck,
  Identities: UsersRound,
};

/** Names shown in monospace, as the console shows keys and paths everywhere. */
const monospace = new Set<PaletteGroup>(["Folders", "Secrets"]);

interface CommandPaletteProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/**
 * The command palette: one search over the console's pages, projects, environments, folders,
 * secret keys (names only), roles, identities and frequent actions. Its lists are read when it
 * opens (folders and keys once something is typed); choosing a result goes there and closes it.
 */
export function CommandPalette({ open, onOpenChange }: CommandPaletteProps) {
  // The result chosen: focus goes where its page puts it (a drawer, the section its link names),
  // not back to the button that opened the palette. The palette holds focus until it has closed.
  const chosen = useRef<PaletteItem | undefined>(undefined);
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        onCloseAutoFocus={(event) => {
          const entry = chosen.current;
          chosen.current = undefined;
          if (!entry) return;
          event.preventDefault();
          const target = new URL(entry.href, window.location.origin).hash.slice(1);
          if (target) focusWhenShown(target);
        }}
        className="top-[12vh] max-w-xl translate-y-0 gap-0 overflow-hidden p-0 [&>button:last-child]:top-3 [&>button:last-child]:right-3"
        aria-describedby="command-palette-description"
      >
        <DialogTitle className="sr-only">Command palette</DialogTitle>
        <DialogDescription id="command-palette-description" className="sr-only">
          Type to find a page, project, environment, folder, secret key, role, identity or action; use the arrow keys to
          choose and Enter to open it.
        </DialogDescription>
        <PaletteSearch
          onChosen={(entry) => {
            chosen.current = entry;
            onOpenChange(false);
          }}
        />
      </DialogContent>
    </Dialog>
  );
}

function PaletteSearch({ onChosen }: { onChosen: (entry: PaletteItem) => void }) {
  const navigate = useNavigate();
  const [search, setSearch] = useState("");
  const { items, loading, failures } = usePaletteItems(search.trim() !== "");
  const results = searchItems(items, search, PER_GROUP);

  function choose(entry: PaletteItem) {
    onChosen(entry);
    void navigate(entry.href);
  }

  return (
    <Command
      shouldFilter={false}
      vimBindings={false}
      label="Search the console"
      className="flex max-h-[min(32rem,76dvh)] min-w-0 flex-col"
    >
      <div className="relative border-b border-border">
        <Search
          aria-hidden
          className="pointer-events-none absolute top-1/2 left-4 size-4 -translate-y-1/2 text-muted-foreground"
        />
        <Command.Input
          value={search}
          onValueChange={setSearch}
          placeholder="Search pages, projects, secret keys, identities…"
          className="h-12 w-full bg-transparent pr-12 pl-11 text-sm outline-none placeholder:text-muted-foreground"
        />
        {loading ? <Spinner className="absolute top-1/2 right-12 -translate-y-1/2 text-muted-foreground" /> : null}
      </div>
      {failures.length > 0 ? <Failures failures={failures} /> : null}
      <Command.List aria-busy={loading} className="min-h-0 flex-1 overflow-y-auto overscroll-contain p-2">
        {loading && results.length === 0 ? (
          <Command.Loading label="Loading">
            <p className="px-2 py-6 text-center text-[13px] text-muted-foreground">Loading…</p>
          </Command.Loading>
        ) : null}
        {!loading || results.length > 0 ? (
          <Command.Empty className="px-2 py-6 text-center text-[13px] text-muted-foreground">
            {search.trim() ? `Nothing matches “${search.trim()}”.` : "Nothing to show yet."}
          </Command.Empty>
        ) : null}
        {[...new Set(results.map((entry) => entry.group))].map((group) => {
          const inGroup = results.filter((entry) => entry.group === group);
          const Icon = groupIcons[group];
          return (
            <Command.Group
              key={group}
              heading={group}
              className="[&_[cmdk-group-heading]]:px-2 [&_[cmdk-group-heading]]:pt-2 [&_[cmdk-group-heading]]:pb-1 [&_[cmdk-group-heading]]:text-xs [&_[cmdk-group-heading]]:font-medium [&_[cmdk-group-heading]]:text-muted-foreground"
            >
              {inGroup.map((entry) => (
                <Command.Item
                  key={entry.id}
                  value={entry.id}
                  aria-label={entry.name}
                  onSelect={() => choose(entry)}
                  className={cn(
                    "flex min-h-9 cursor-default items-center gap-2.5 rounded-md px-2 py-1.5 text-sm outline-none",
                    "data-[selected=true]:bg-hover",
                  )}
                >
                  <Icon aria-hidden className="size-4 shrink-0 text-muted-foreground" />
                  {/* On a phone's screen where it is goes below the name, so that a long key stays readable. */}
                  <span className="flex min-w-0 flex-1 flex-col sm:flex-row sm:items-center sm:gap-2">
                    <span className={cn("min-w-0 truncate", monospace.has(group) && "font-mono text-[13px]")}>
                      {entry.label}
                    </span>
                    {entry.detail ? (
                      <span className="min-w-0 shrink-[2] truncate text-xs text-muted-foreground sm:ml-auto">
                        {entry.detail}
                      </span>
                    ) : null}
                  </span>
                </Command.Item>
              ))}
            </Command.Group>
          );
        })}
      </Command.List>
      <div className="hidden items-center gap-4 border-t border-border px-4 py-2 text-xs text-muted-foreground sm:flex">
        <span>
          <Key>↑</Key> <Key>↓</Key> to move
        </span>
        <span>
          <Key>Enter</Key> to open
        </span>
        <span>
          <Key>Esc</Key> to close
        </span>
      </div>
    </Command>
  );
}

/**
 * Focuses (and so scrolls to) the element with this id once the page shows it, waiting 5 seconds
 * at most; a heading or section is made focusable for it, as a skip link's target is.
 */
function focusWhenShown(id: string, deadline = performance.now() + 5000) {
  const element = document.getElementById(id);
  if (element) {
    if (element.tabIndex < 0 && !element.hasAttribute("tabindex")) element.setAttribute("tabindex", "-1");
    element.focus();
  } else if (performance.now() < deadline) requestAnimationFrame(() => focusWhenShown(id, deadline));
}

function Key({ children }: { children: string }) {
  return (
    <kbd className="rounded border border-border bg-surface px-1 py-px font-mono text-[11px] text-foreground">
      {children}
    </kbd>
  );
}

function Failures({ failures }: { failures: PaletteFailure[] }) {
  const shown = failures.slice(0, 3).map((failure) => failure.what);
  const more = failures.length - shown.length;
  return (
    <div
      role="alert"
      className="flex items-center gap-3 border-b border-border bg-destructive-subtle px-4 py-2 text-[13px] text-destructive-subtle-foreground"
    >
      <p className="min-w-0 flex-1">
        Could not read the {shown.join(", ")}
        {more > 0 ? ` and ${more} more` : ""}: they are left out of the results.
      </p>
      <Button
        size="sm"
        variant="secondary"
        onClick={() => {
          for (const failure of failures) failure.retry();
        }}
      >
        Retry
      </Button>
    </div>
  );
}
