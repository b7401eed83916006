import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

type PageModule = { default: ComponentType };

const preloaders = new Map<string, () => Promise<unknown>>();

/**
 * `React.lazy` for a page that the build pre-renders at `path`. Before hydrating that page,
 * main.tsx awaits `preloadPage(path)`; once the module is loaded, the lazy component resolves
 * synchronously (a thenable that calls back at once), so hydration never suspends on it and the
 * pre-rendered HTML is adopted as it is instead of being replaced by a spinner.
 */
export function lazyPage(path: string, load: () => Promise<PageModule>): LazyExoticComponent<ComponentType> {
  let loaded: PageModule | undefined;
  const preload = () => load().then((module) => (loaded = module));
  preloaders.set(path, preload);
  return lazy(() => (loaded ? ({ then: (resolve: (m: PageModule) => void) => resolve(loaded!) } as unknown as Promise<PageModule>) : preload()));
}

/** Loads the lazy page registered for `pathname`, if any. */
export function preloadPage(pathname: string): Promise<unknown> {
  return preloaders.get(pathname)?.() ?? Promise.resolve();
}
