/** Whether the person is on a Mac, where the palette's shortcut is ⌘K rather than Ctrl K. */
export function isMac(): boolean {
  return /mac|iphone|ipad/i.test(navigator.userAgent);
}

/** Fields where typing writes text, so a plain key such as `?` belongs to the field, not to a shortcut. */
const TEXT_ENTRY =
  "textarea,select,[contenteditable]:not([contenteditable=false]),[role=textbox],[role=combobox]," +
  "input:not([type=button],[type=checkbox],[type=radio],[type=reset],[type=submit],[type=range],[type=color],[type=file],[type=image])";

export function isTextEntry(target: EventTarget | null): boolean {
  return target instanceof Element && target.matches(TEXT_ENTRY);
}

export type ShortcutDialog = "palette" | "shortcuts";

/** What a key press asks for: the palette (Ctrl-K, ⌘K), the shortcuts (`?` outside a text field), or nothing. */
export function shortcutOf(event: KeyboardEvent): ShortcutDialog | undefined {
  const modified = event.ctrlKey || event.metaKey;
  if (event.key.toLowerCase() === "k" && modified && !event.altKey && !event.shiftKey) return "palette";
  if (event.key === "?" && !modified && !event.altKey && !isTextEntry(event.target)) return "shortcuts";
  return undefined;
}
