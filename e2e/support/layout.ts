import type { Locator, Page } from "@playwright/test";

/** How far the document reaches past the window's right edge, in CSS pixels (0 when it does not scroll sideways). */
export function sidewaysOverflow(page: Page): Promise<number> {
  return page.evaluate(() => Math.max(0, document.documentElement.scrollWidth - window.innerWidth));
}

/**
 * The elements that reach past the window's right edge while their parent does not, and that no
 * scrolling frame holds: what makes the document scroll sideways.
 */
export function widestElements(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = window.innerWidth + 0.5;
    const held = (el: Element) => {
      for (let node = el.parentElement; node && node !== document.body; node = node.parentElement) {
        if (getComputedStyle(node).overflowX !== "visible") return node.getBoundingClientRect().right <= width;
      }
      return false;
    };
    const describe = (el: Element) => {
      const classes = typeof el.className === "string" ? el.className.split(/\s+/).slice(0, 5).join(".") : "";
      const label = el.getAttribute("aria-label") ?? el.textContent?.trim().slice(0, 30) ?? "";
      return `${el.tagName.toLowerCase()}${classes ? `.${classes}` : ""} "${label}" right=${Math.round(el.getBoundingClientRect().right)}`;
    };
    return Array.from(document.querySelectorAll("body *"))
      .filter(
        (el) =>
          el.getBoundingClientRect().right > width &&
          (el.parentElement?.getBoundingClientRect().right ?? 0) <= width &&
          !held(el),
      )
      .slice(0, 8)
      .map(describe);
  });
}

/**
 * The controls (fields, buttons, links, checkboxes, icons) cut off at the side: reaching past the
 * window, or past a frame that hides its overflow, with no frame between that scrolls. A control
 * in a frame that scrolls sideways (a wide table) can be scrolled to and is not counted.
 */
export function cutOffControls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const controls = document.querySelectorAll(
      "input:not([type=hidden]), select, textarea, button, a[href], [role=checkbox], [role=switch], svg",
    );
    for (const el of Array.from(controls)) {
      const r = el.getBoundingClientRect();
      if (r.width <= 1 || !el.checkVisibility({ visibilityProperty: true }) || el.closest(".sr-only")) continue;
      let left = 0;
      let right = window.innerWidth;
      let exempt = false;
      for (let node = el.parentElement; node; node = node.parentElement) {
        const overflow = getComputedStyle(node).overflowX;
        if (overflow === "auto" || overflow === "scroll") {
          exempt = node !== document.documentElement && node !== document.body;
          if (exempt) break;
        }
        if (overflow === "hidden" || overflow === "clip") {
          // Text cut short on purpose ends in an ellipsis (a long name in a breadcrumb).
          if (getComputedStyle(node).textOverflow === "ellipsis") {
            exempt = true;
            break;
          }
          const frame = node.getBoundingClientRect();
          left = Math.max(left, frame.left);
          right = Math.min(right, frame.right);
        }
      }
      if (exempt || (r.left >= left - 1 && r.right <= right + 1)) continue;
      const label = el.getAttribute("aria-label") ?? el.textContent?.trim().slice(0, 30) ?? "";
      found.push(
        `<${el.tagName.toLowerCase()}> "${label}" spans ${Math.round(r.left)}–${Math.round(r.right)}, visible ${Math.round(left)}–${Math.round(right)}`,
      );
    }
    return found;
  });
}

/**
 * Pairs of visible text boxes (and icons) inside `container` that overlap.
 * Each box is first clipped by every ancestor that hides its overflow (a truncated key, a table
 * scrolling in its own frame), so only what the reader sees is compared.
 */
export function overlappingText(container: Locator): Promise<string[]> {
  return container.evaluate((root) => {
    type Box = { left: number; top: number; right: number; bottom: number; what: string; node?: Node };
    const clip = (box: Box, el: Element | null): Box | undefined => {
      let clipped = box;
      for (let node = el; node && node !== document.documentElement; node = node.parentElement) {
        const style = getComputedStyle(node);
        if (style.overflowX === "visible" && style.overflowY === "visible") continue;
        const r = node.getBoundingClientRect();
        clipped = {
          ...clipped,
          left: Math.max(clipped.left, style.overflowX === "visible" ? -Infinity : r.left),
          right: Math.min(clipped.right, style.overflowX === "visible" ? Infinity : r.right),
          top: Math.max(clipped.top, style.overflowY === "visible" ? -Infinity : r.top),
          bottom: Math.min(clipped.bottom, style.overflowY === "visible" ? Infinity : r.bottom),
        };
      }
      return clipped.right - clipped.left > 1 && clipped.bottom - clipped.top > 1 ? clipped : undefined;
    };
    const visible = (el: Element) => {
      const style = getComputedStyle(el);
      return style.visibility !== "hidden" && Number(style.opacity) > 0 && el.checkVisibility();
    };
    const boxes: Box[] = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.nodeType === Node.TEXT_NODE) {
        const parent = node.parentElement;
        if (!parent || !node.textContent?.trim() || !visible(parent)) continue;
        if (parent.closest(".sr-only")) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        for (const r of Array.from(range.getClientRects())) {
          const box = clip(
            { left: r.left, top: r.top, right: r.right, bottom: r.bottom, what: node.textContent.trim().slice(0, 24) },
            parent,
          );
          if (box) boxes.push({ ...box, node });
        }
      } else {
        const el = node as Element;
        if (!(el instanceof SVGSVGElement)) continue;
        if (!visible(el) || el.closest(".sr-only")) continue;
        const r = el.getBoundingClientRect();
        const box = clip(
          {
            left: r.left,
            top: r.top,
            right: r.right,
            bottom: r.bottom,
            what: `<${el.tagName.toLowerCase()} ${el.getAttribute("aria-label") ?? ""}>`,
          },
          el.parentElement,
        );
        if (box) boxes.push(box);
      }
    }
    const found: string[] = [];
    // A pixel of slack: glyph boxes of adjacent lines may touch.
    const overlap = (a: Box, b: Box) =>
      Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 &&
      Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i] as Box;
        const b = boxes[j] as Box;
        // A text node's own boxes (its lines, or fragments around an inline child) are one text.
        if (a.node && a.node === b.node) continue;
        if (overlap(a, b)) found.push(`"${a.what}" overlaps "${b.what}"`);
      }
    }
    return found;
  });
}

/**
 * Visible fields whose placeholder reads like a value (`30`, `https://kubernetes.default.svc`,
 * `DATABASE_URL`): an empty field showing one looks set. A placeholder says what to type
 * ("Search by key"), or is plainly an example ("e.g. ci-deployer"); samples belong in the help text.
 */
export function valueLikePlaceholders(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(
      document.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>("input[placeholder], textarea[placeholder]"),
    )
      .filter((field) => field.checkVisibility() && field.value === "")
      .map((field) => field.placeholder.trim())
      .filter(
        (text) =>
          !text.startsWith("e.g.") &&
          text.split(/\s+/).some((word: string) => /[0-9/:@=_-]|[a-z]\.[a-z]/i.test(word) || /^[A-Z]{2,}$/.test(word)),
      ),
  );
}

/** Waits for every finite animation (dialogs and drawers sliding in, lists fading back) to end. */
export async function animationsSettled(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().endTime !== Number.POSITIVE_INFINITY)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
}
