/**
 * A small toast store. Toasts are rendered by `components/ui/toaster.tsx` in a polite
 * live region; a store outside React lets mutation call sites raise them directly.
 */
export type ToastTone = "success" | "error" | "info";

export interface Toast {
  id: number;
  tone: ToastTone;
  title: string;
  description?: string | undefined;
}

let nextId = 1;
let toasts: readonly Toast[] = [];
const listeners = new Set<() => void>();
const timers = new Map<number, ReturnType<typeof setTimeout>>();
const LIFETIME_MS = 5000;
const MAX_VISIBLE = 4;

function emit(next: readonly Toast[]): void {
  toasts = next;
  for (const listener of listeners) listener();
}

export function dismissToast(id: number): void {
  const timer = timers.get(id);
  if (timer) clearTimeout(timer);
  timers.delete(id);
  emit(toasts.filter((t) => t.id !== id));
}

function show(tone: ToastTone, title: string, description?: string): number {
  const id = nextId++;
  emit([...toasts, { id, tone, title, description }].slice(-MAX_VISIBLE));
  timers.set(
    id,
    setTimeout(() => dismissToast(id), LIFETIME_MS),
  );
  return id;
}

export const toast = {
  success: (title: string, description?: string) => show("success", title, description),
  error: (title: string, description?: string) => show("error", title, description),
  info: (title: string, description?: string) => show("info", title, description),
};

export function subscribeToasts(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function getToasts(): readonly Toast[] {
  return toasts;
}

/** Pauses auto-dismiss while a toast is hovered or focused. */
export function holdToast(id: number): void {
  const timer = timers.get(id);
  if (timer) clearTimeout(timer);
}

export function releaseToast(id: number): void {
  holdToast(id);
  timers.set(
    id,
    setTimeout(() => dismissToast(id), LIFETIME_MS),
  );
}
