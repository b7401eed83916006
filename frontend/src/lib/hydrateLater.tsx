import { Suspense, type ReactElement } from 'react';

/**
 * Progressive hydration of a pre-rendered page. Preact hydrates in one go, and on a phone a whole
 * page in one task blocks taps for hundreds of milliseconds (Lighthouse's total blocking time). A
 * component that suspends while it is being hydrated keeps its pre-rendered DOM and is hydrated
 * when its promise settles (preact/compat's Suspense; react is aliased to it, vite.config.ts), so
 * each <HydrateLater> part of the page is hydrated in a task of its own, one after the other,
 * after the rest of the page. Its child must render exactly one element: Preact 10 keeps one DOM
 * node for a suspended component.
 *
 * Only the first hydration is split: boot.tsx brackets it with startHydration/endHydration. The
 * pre-renderer (Node), client renders and every later render go straight through.
 */
let hydrating = false;
const waiting = new Map<string, Promise<void>>();
const released = new Set<string>();
let queue: Promise<void> = Promise.resolve();

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export function startHydration(): void {
  hydrating = true;
}

export function endHydration(): void {
  hydrating = false;
}

/** Settles, in a task after the previous part's, once `id` may be hydrated. */
function turnOf(id: string): Promise<void> {
  let turn = waiting.get(id);
  if (!turn) {
    turn = queue = queue.then(nextTask).then(() => void released.add(id));
    waiting.set(id, turn);
  }
  return turn;
}

function Gate({ id, children }: { id: string; children: ReactElement }): ReactElement {
  if (hydrating && !released.has(id)) throw turnOf(id);
  return children;
}

/** Hydrates `children` (one element) in a later task than the page around it; `id` is unique on the page. */
export function HydrateLater({ id, children }: { id: string; children: ReactElement }): ReactElement {
  // A boundary of its own, so that each part resumes on its own turn (one boundary waits for all
  // of its suspended children before resuming any).
  return (
    <Suspense fallback={null}>
      <Gate id={id}>{children}</Gate>
    </Suspense>
  );
}
