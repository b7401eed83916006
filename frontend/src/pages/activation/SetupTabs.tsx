import { useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

export interface SetupTab<K extends string> {
  key: K;
  label: string;
  panel: ReactNode;
}

/**
 * WAI-ARIA tabs (automatic activation): one tab stop, arrow keys move between tabs (mirrored in a
 * right-to-left page), Home/End jump to the ends; each panel is labelled by its tab.
 */
export function SetupTabs<K extends string>({ tabs, initial, label }: { tabs: SetupTab<K>[]; initial: K; label: string }) {
  const id = useId();
  const [selected, setSelected] = useState<K>(initial);
  const refs = useRef<(HTMLButtonElement | null)[]>([]);

  const move = (index: number) => {
    const next = (index + tabs.length) % tabs.length;
    setSelected(tabs[next].key);
    refs.current[next]?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const rtl = getComputedStyle(event.currentTarget).direction === 'rtl';
    const forward = rtl ? 'ArrowLeft' : 'ArrowRight';
    const backward = rtl ? 'ArrowRight' : 'ArrowLeft';
    if (event.key === forward) move(index + 1);
    else if (event.key === backward) move(index - 1);
    else if (event.key === 'Home') move(0);
    else if (event.key === 'End') move(tabs.length - 1);
    else return;
    event.preventDefault();
  };

  return (
    <div className="setup-tabs">
      <div role="tablist" aria-label={label} className="setup-tabs__list">
        {tabs.map((tab, index) => {
          const active = tab.key === selected;
          return (
            <button
              key={tab.key}
              ref={(el) => {
                refs.current[index] = el;
              }}
              type="button"
              role="tab"
              id={`${id}-tab-${tab.key}`}
              aria-selected={active}
              aria-controls={`${id}-panel-${tab.key}`}
              tabIndex={active ? 0 : -1}
              className="setup-tabs__tab"
              onClick={() => setSelected(tab.key)}
              onKeyDown={(event) => onKeyDown(event, index)}
            >
              {tab.label}
            </button>
          );
        })}
      </div>
      {tabs.map((tab) => (
        <div
          key={tab.key}
          role="tabpanel"
          id={`${id}-panel-${tab.key}`}
          aria-labelledby={`${id}-tab-${tab.key}`}
          hidden={tab.key !== selected}
          tabIndex={0}
          className="setup-tabs__panel"
        >
          {tab.panel}
        </div>
      ))}
    </div>
  );
}
