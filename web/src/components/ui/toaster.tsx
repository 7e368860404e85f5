import { CircleAlert, CircleCheck, Info, X } from "lucide-react";
import { useSyncExternalStore } from "react";
import { cn } from "@/lib/cn";
import { dismissToast, getToasts, holdToast, releaseToast, subscribeToasts, type ToastTone } from "@/lib/toast";

const icons: Record<ToastTone, typeof Info> = { success: CircleCheck, error: CircleAlert, info: Info };
const iconColors: Record<ToastTone, string> = {
  success: "text-success",
  error: "text-destructive",
  info: "text-accent-text",
};

/** Renders the toast store in a polite live region at the bottom right. */
function Toaster() {
  const toasts = useSyncExternalStore(subscribeToasts, getToasts, getToasts);
  return (
    <section
      aria-label="Notifications"
      className="pointer-events-none fixed right-4 bottom-4 z-[60] flex w-[min(24rem,calc(100%-2rem))] flex-col gap-2"
    >
      <ol aria-live="polite" aria-relevant="additions" className="flex flex-col gap-2">
        {toasts.map((t) => {
          const Icon = icons[t.tone];
          return (
            <li
              key={t.id}
              role={t.tone === "error" ? "alert" : "status"}
              onMouseEnter={() => holdToast(t.id)}
              onMouseLeave={() => releaseToast(t.id)}
              onFocus={() => holdToast(t.id)}
              onBlur={() => releaseToast(t.id)}
              className="pointer-events-auto flex items-start gap-3 rounded-lg border border-border bg-card p-3 pr-2 shadow-lg animate-slide-up"
            >
              <Icon aria-hidden className={cn("mt-0.5 size-4 shrink-0", iconColors[t.tone])} />
              <div className="min-w-0 flex-1">
                <p className="font-medium">{t.title}</p>
                {t.description ? (
                  <p className="mt-0.5 text-[13px] break-words text-muted-foreground">{t.description}</p>
                ) : null}
              </div>
              <button
                type="button"
                onClick={() => dismissToast(t.id)}
                aria-label="Dismiss notification"
                className="rounded-md p-1 text-muted-foreground outline-none hover:bg-hover hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring"
              >
                <X aria-hidden className="size-4" />
              </button>
            </li>
          );
        })}
      </ol>
    </section>
  );
}

export { Toaster };
