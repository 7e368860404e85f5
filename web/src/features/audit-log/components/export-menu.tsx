import { Download } from "lucide-react";
import { useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/components/ui/dialog";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { FormAlert } from "@/components/ui/form-alert";
import { errorSummary } from "@/lib/describe-error";
import { toast } from "@/lib/toast";
import type { AuditFilter, AuditWindow } from "../audit-filter";
import { download, EXPORT_CAP, type ExportFormat, exportEvents, exportFileName } from "../export";

const count = new Intl.NumberFormat("en");

type ExportState =
  | { phase: "idle" }
  | { phase: "running"; format: ExportFormat; events: number }
  | { phase: "failed"; format: ExportFormat; message: string };

/**
 * Exports the filtered events of the pinned window as CSV or JSON: page after page, with the
 * count so far and a Cancel, up to EXPORT_CAP events (said before it starts). The file is built
 * in the browser and handed over as a download; nothing is kept.
 */
export function ExportMenu({ filter, window }: { filter: AuditFilter; window: AuditWindow }) {
  const [state, setState] = useState<ExportState>({ phase: "idle" });
  const controller = useRef<AbortController | undefined>(undefined);

  async function start(format: ExportFormat) {
    controller.current?.abort();
    const abort = new AbortController();
    controller.current = abort;
    setState({ phase: "running", format, events: 0 });
    try {
      const result = await exportEvents({
        filter,
        window,
        format,
        signal: abort.signal,
        onProgress: ({ events }) => setState({ phase: "running", format, events }),
      });
      download(result.blob, exportFileName(window, format));
      setState({ phase: "idle" });
      toast.success(
        `Exported ${count.format(result.events)} ${result.events === 1 ? "event" : "events"}`,
        result.capped
          ? `The export stopped at its limit of ${count.format(EXPORT_CAP)}: narrow the filters for the rest.`
          : undefined,
      );
    } catch (error) {
      if (abort.signal.aborted) return;
      setState({ phase: "failed", format, message: errorSummary(error, "The export failed") });
    }
  }

  function cancel() {
    controller.current?.abort();
    setState({ phase: "idle" });
  }

  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button size="sm">
            <Download aria-hidden />
            Export
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end" className="w-64">
          <DropdownMenuLabel className="font-normal">
            The events of this view, up to {count.format(EXPORT_CAP)}.
          </DropdownMenuLabel>
          <DropdownMenuItem onSelect={() => void start("csv")}>CSV (metadata as JSON text)</DropdownMenuItem>
          <DropdownMenuItem onSelect={() => void start("json")}>JSON (events as listed)</DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      <Dialog open={state.phase !== "idle"} onOpenChange={(open) => (open ? undefined : cancel())}>
        <DialogContent className="max-w-md">
          <DialogHeader>
            <DialogTitle>Exporting {state.phase === "idle" ? "" : state.format.toUpperCase()}</DialogTitle>
            <DialogDescription>
              Reading the events of this view page by page, up to {count.format(EXPORT_CAP)}; the file downloads when
              they are all read.
            </DialogDescription>
          </DialogHeader>
          {state.phase === "running" ? (
            <div className="grid gap-2">
              <progress
                className="h-2 w-full overflow-hidden rounded-full accent-accent"
                max={EXPORT_CAP}
                value={state.events}
                aria-label="Events exported"
              />
              <p className="text-[13px] text-muted-foreground tabular-nums" role="status">
                {count.format(state.events)} events read…
              </p>
            </div>
          ) : state.phase === "failed" ? (
            <FormAlert message={state.message} />
          ) : null}
          <DialogFooter>
            {state.phase === "failed" ? (
              <Button size="sm" variant="primary" onClick={() => void start(state.format)}>
                Try again
              </Button>
            ) : null}
            <Button size="sm" onClick={cancel}>
              {state.phase === "failed" ? "Close" : "Cancel"}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </>
  );
}
