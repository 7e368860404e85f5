import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  useSyncExternalStore,
} from "react";
import { type Location, useBlocker } from "react-router";

interface Entry {
  dirty: boolean;
  /** The input sits in a modal dialog or drawer, which any change of address would close. */
  modal: boolean;
}

/**
 * A place that can lose typed input: a dialog or drawer (by closing), or the console itself (by
 * leaving a page or reloading). Each form tells the nearest place whether it holds unsaved input;
 * a dialog tells the place around it in turn. The place is read when someone tries to leave, not
 * when it last rendered, so a key pressed right after typing is judged on what was typed.
 */
export class UnsavedPlace {
  readonly #entries = new Map<string, Entry>();
  readonly #listeners = new Set<() => void>();
  readonly #parent: { place: UnsavedPlace; id: string } | undefined;
  #released = false;

  constructor(
    /** Asks the person whether to discard, running `discard` if they agree. */
    readonly ask: (discard: () => void) => void,
    parent?: { place: UnsavedPlace; id: string },
  ) {
    this.#parent = parent;
  }

  report(id: string, dirty: boolean, modal = false): void {
    const entry = this.#entries.get(id);
    if (entry?.dirty === dirty && entry.modal === modal) return;
    this.#entries.set(id, { dirty, modal });
    this.#changed();
  }

  forget(id: string): void {
    if (this.#entries.delete(id)) this.#changed();
  }

  /** Whether anything here holds unsaved input. */
  isDirty = (): boolean => !this.#released && [...this.#entries.values()].some((entry) => entry.dirty);

  /** Whether a navigation from one address to another would discard unsaved input. */
  blocks(from: Pick<Location, "pathname" | "search">, to: Pick<Location, "pathname" | "search">): boolean {
    if (this.#released) return false;
    if (from.pathname !== to.pathname) return this.isDirty();
    // A dialog's input is lost on any change of address (Back closes a drawer opened by `?secret=`);
    // a page's form stays while only the query changes.
    return from.search !== to.search && [...this.#entries.values()].some((entry) => entry.dirty && entry.modal);
  }

  /** The person chose to discard: nothing here counts as unsaved until `resume`. */
  release(): void {
    if (this.#released) return;
    this.#released = true;
    this.#changed();
  }

  resume(): void {
    if (!this.#released) return;
    this.#released = false;
    this.#changed();
  }

  /** Takes this place out of the one around it. */
  detach(): void {
    this.#parent?.place.forget(this.#parent.id);
  }

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  #changed(): void {
    this.#parent?.place.report(this.#parent.id, this.isDirty(), true);
    for (const listener of this.#listeners) listener();
  }
}

const UnsavedPlaceContext = createContext<UnsavedPlace | undefined>(undefined);
export const UnsavedPlaceProvider = UnsavedPlaceContext.Provider;

/**
 * A form's unsaved input, `dirty`, told to the dialog it sits in (asked about on closing) and to
 * the console (asked about on leaving the page or reloading). Returns `confirmDiscard(then)`,
 * for a form's own way out (an inline edit's Escape): runs `then` at once when nothing is
 * unsaved, else after the person agrees to discard.
 */
export function useUnsavedChanges(dirty: boolean): (then: () => void) => void {
  const place = useContext(UnsavedPlaceContext);
  const id = useId();
  const dirtyRef = useRef(dirty);
  // A layout effect: the place knows before the browser handles the next key.
  useLayoutEffect(() => {
    dirtyRef.current = dirty;
    place?.report(id, dirty);
  }, [place, id, dirty]);
  useLayoutEffect(() => () => place?.forget(id), [place, id]);
  return useCallback(
    (then: () => void) => {
      if (dirtyRef.current && place) place.ask(then);
      else then();
    },
    [place],
  );
}

/**
 * For a way out of the whole place rather than one form (signing out of the console): runs
 * `then` at once when nothing in the place holds unsaved input, else after the person agrees to
 * discard it.
 */
export function useConfirmDiscardAll(): (then: () => void) => void {
  const place = useContext(UnsavedPlaceContext);
  return useCallback(
    (then: () => void) => {
      if (place?.isDirty()) place.ask(then);
      else then();
    },
    [place],
  );
}

/**
 * A new place inside the current one (a dialog's), whose question is `asking` until answered.
 * `dirty` is input held by the place's owner itself rather than by forms inside it.
 */
export function useUnsavedPlace(dirty = false) {
  const parent = useContext(UnsavedPlaceContext);
  const id = useId();
  const [asking, setAsking] = useState<{ discard: () => void }>();
  const [place] = useState(
    () => new UnsavedPlace((discard) => setAsking({ discard }), parent && { place: parent, id }),
  );
  useLayoutEffect(() => {
    place.report("owner", dirty);
  }, [place, dirty]);
  useLayoutEffect(() => () => place.detach(), [place]);
  const stay = useCallback(() => setAsking(undefined), []);
  const discard = useCallback(() => {
    setAsking(undefined);
    asking?.discard();
  }, [asking]);
  return { place, asking: asking !== undefined, stay, discard };
}

/**
 * The console's own place: leaving a page (a link, Back) while a form holds unsaved input is held
 * until the person answers, and reloading or closing the tab makes the browser ask.
 */
export function useLeaveGuard(place: UnsavedPlace) {
  const dirty = useSyncExternalStore(place.subscribe, place.isDirty, () => false);
  const blocker = useBlocker(
    useCallback(
      ({ currentLocation, nextLocation }: { currentLocation: Location; nextLocation: Location }) =>
        place.blocks(currentLocation, nextLocation),
      [place],
    ),
  );

  useEffect(() => {
    if (!dirty) return;
    function onBeforeUnload(event: BeforeUnloadEvent) {
      event.preventDefault();
      // Older browsers ask only when a return value is set.
      event.returnValue = "";
    }
    window.addEventListener("beforeunload", onBeforeUnload);
    return () => window.removeEventListener("beforeunload", onBeforeUnload);
  }, [dirty]);

  // A form that saves and then moves on is clean once it has rendered: the navigation it started goes ahead.
  const blocked = blocker.state === "blocked";
  useEffect(() => {
    if (blocked && !dirty) blocker.proceed?.();
  }, [blocked, dirty, blocker]);

  return {
    /** A navigation waits for the person's answer. */
    blocked: blocked && dirty,
    stay: () => blocker.reset?.(),
    leave: () => blocker.proceed?.(),
  };
}
