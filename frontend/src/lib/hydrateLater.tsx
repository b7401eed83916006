import { Suspense, type ReactElement, type ReactNode } from 'react';

/**
 * Progressive hydration of a pre-rendered page. Preact hydrates in one go, and on a phone a whole
 * page in one task blocks taps for hundreds of milliseconds (Lighthouse's total blocking time). A
 * component that suspends while it is being hydrated keeps its pre-rendered DOM and is hydrated
 * when its promise settles (preact/compat's Suspense; react is aliased to it, vite.config.ts), so
 * each <HydrateLater> part of the page is hydrated in a task of its own, one after the other,
 * after the rest of the page. Its child must render exactly one element: Preact 10 keeps one DOM
 * node for a suspended component.
 *
 * Parts nest: a part hydrated on its turn is still being hydrated, so the parts inside it wait for
 * turns of their own. The hydration lasts from boot.tsx's startHydration until the first pass has
 * ended (endHydration) and a task has passed with no part waiting; the pre-renderer (Node), client
 * renders and every later render go straight through.
 */
let firstPass = false;
let hydrating = false;
const waiting = new Map<string, Promise<void>>();
const released = new Set<string>();
let queue: Promise<void> = Promise.resolve();
let outstanding = 0;

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export function startHydration(): void {
  firstPass = hydrating = true;
}

export function endHydration(): void {
  firstPass = false;
  void nextTask().then(settle);
}

let finished!: () => void;
/** Settles once every part of the pre-rendered page is hydrated (boot.tsx marks #root then). */
export const hydrated = new Promise<void>((resolve) => (finished = resolve));

/** Ends the hydration once nothing waits: a part's turn is over after the task it was hydrated in (its inner parts have queued by then). */
function settle(): void {
  if (!hydrating || firstPass || outstanding > 0) return;
  hydrating = false;
  finished();
}

/** Settles, in a task after the previous part's, once `id` may be hydrated. */
function turnOf(id: string): Promise<void> {
  let turn = waiting.get(id);
  if (!turn) {
    outstanding += 1;
    turn = queue = queue.then(nextTask).then(() => {
      released.add(id);
      outstanding -= 1;
      void nextTask().then(settle);
    });
    waiting.set(id, turn);
  }
  return turn;
}

function Gate({ id, children }: { id: string; children: ReactElement }): ReactElement {
  if (hydrating && !released.has(id)) throw turnOf(id);
  return children;
}

/**
 * Hydrates `children` (one element) in a later task than the page around it; `id` is unique on the
 * page. After the first hydration it is a plain Suspense boundary showing `fallback` (none unless
 * given) while something inside loads.
 */
export function HydrateLater({
  id,
  fallback = null,
  children,
}: {
  id: string;
  fallback?: ReactNode;
  children: ReactElement;
}): ReactElement {
  // A boundary of its own, so that each part resumes on its own turn (one boundary waits for all
  // of its suspended children before resuming any).
  return (
    <Suspense fallback={fallback}>
      <Gate id={id}>{children}</Gate>
    </Suspense>
  );
}
