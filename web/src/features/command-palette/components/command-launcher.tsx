import { Search } from "lucide-react";
import { lazy, Suspense, useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { isMac, type ShortcutDialog, shortcutOf } from "../shortcuts";

// The palette and the shortcuts list load when first asked for: pages pay nothing for them.
const ShortcutDialogs = lazy(async () => ({ default: (await import("./shortcut-dialogs")).ShortcutDialogs }));

/**
 * The top bar's search button and the console's shortcuts: Ctrl-K (⌘K) opens the command
 * palette anywhere (and closes it again), `?` outside a text field and a dialog lists the shortcuts.
 */
export function CommandLauncher() {
  const [opened, setOpened] = useState<ShortcutDialog>();
  // Once loaded, the dialogs stay mounted, so that they animate closed.
  const [loaded, setLoaded] = useState(false);
  if (opened && !loaded) setLoaded(true);

  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      const which = shortcutOf(event);
      if (!which || event.defaultPrevented) return;
      if (which === "shortcuts" && document.querySelector("[role=dialog],[role=alertdialog]")) return;
      event.preventDefault();
      setOpened((current) => (current === which ? undefined : which));
    }
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, []);

  const mac = isMac();
  return (
    <>
      <Button
        variant="ghost"
        size="sm"
        className="px-2 text-muted-foreground md:w-56 md:justify-start md:border md:border-input md:bg-card"
        aria-label="Search (command palette)"
        aria-keyshortcuts={mac ? "Meta+K" : "Control+K"}
        onClick={() => setOpened("palette")}
      >
        <Search aria-hidden />
        <span className="hidden md:inline">Search…</span>
        <kbd className="ml-auto hidden font-mono text-xs md:inline">{mac ? "⌘K" : "Ctrl K"}</kbd>
      </Button>
      {loaded ? (
        <Suspense fallback={null}>
          <ShortcutDialogs opened={opened} onOpenedChange={setOpened} />
        </Suspense>
      ) : null}
    </>
  );
}
