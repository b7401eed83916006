import type { ReactNode } from 'react';
import { NavLink } from 'react-router';

export interface BottomNavItem {
  to: string;
  label: string;
  icon: ReactNode;
}

/** Fixed tab bar for the signed-in area; the current page is marked with aria-current="page". */
export function BottomNav({ items, label }: { items: readonly BottomNavItem[]; label: string }) {
  return (
    <nav className="bottom-nav" aria-label={label}>
      <ul className="bottom-nav__list">
        {items.map((item) => (
          <li key={item.to}>
            <NavLink to={item.to} className="bottom-nav__link" end>
              <span className="bottom-nav__icon" aria-hidden="true">
                {item.icon}
              </span>
              <span className="bottom-nav__label">{item.label}</span>
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
