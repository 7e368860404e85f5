import { describe, expect, it } from "vitest";
import { shortcutOf } from "./shortcuts";

function press(key: string, init: KeyboardEventInit = {}, target: Element = document.body) {
  const event = new KeyboardEvent("keydown", { key, bubbles: true, ...init });
  let seen: KeyboardEvent | undefined;
  target.addEventListener("keydown", (e) => {
    seen = e;
  });
  target.dispatchEvent(event);
  if (!seen) throw new Error("no event");
  return shortcutOf(seen);
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
