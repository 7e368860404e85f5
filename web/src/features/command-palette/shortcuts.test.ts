import { describe, expect, it } from "vitest";
import { shortcutOf } from "./shortcuts";

/** Presses `key` on `target` and reads the shortcut from the event as the document's listener gets it. */
function press(key: string, init: KeyboardEventInit = {}, target: Element = document.body) {
  let seen: ReturnType<typeof shortcutOf> | "not seen" = "not seen";
  const listener = (event: KeyboardEvent) => {
    seen = shortcutOf(event);
  };
  document.addEventListener("keydown", listener);
  target.dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true, ...init }));
  document.removeEventListener("keydown", listener);
  if (seen === "not seen") throw new Error("the key press did not reach the document");
  return seen;
}

describe("shortcutOf", () => {
  it("opens the palette with Ctrl-K and ⌘K, in text fields too, but not with other modifiers", () => {
    const input = document.body.appendChild(document.createElement("input"));
    expect(press("k", { ctrlKey: true })).toBe("palette");
    expect(press("K", { metaKey: true })).toBe("palette");
    expect(press("k", { ctrlKey: true }, input)).toBe("palette");
    expect(press("k", { ctrlKey: true, shiftKey: true })).toBeUndefined();
    expect(press("k")).toBeUndefined();
  });

  it("shows the shortcuts with ? outside text fields only", () => {
    const input = document.body.appendChild(document.createElement("input"));
    const checkbox = document.body.appendChild(Object.assign(document.createElement("input"), { type: "checkbox" }));
    const textarea = document.body.appendChild(document.createElement("textarea"));
    const editable = document.body.appendChild(document.createElement("div"));
    editable.setAttribute("contenteditable", "true");
    expect(press("?")).toBe("shortcuts");
    expect(press("?", {}, checkbox)).toBe("shortcuts");
    expect(press("?", {}, input)).toBeUndefined();
    expect(press("?", {}, textarea)).toBeUndefined();
    expect(press("?", {}, editable)).toBeUndefined();
    expect(press("?", { ctrlKey: true })).toBeUndefined();
  });
});
