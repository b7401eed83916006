import type { HTMLAttributes, ReactNode } from 'react';

interface CardProps extends Omit<HTMLAttributes<HTMLElement>, 'title'> {
  /** Renders a heading and labels the card region with it. */
  title?: ReactNode;
  titleId?: string;
  /** Shown at the end of the title row (a badge, an action). */
  action?: ReactNode;
  as?: 'section' | 'div' | 'article';
  tone?: 'default' | 'brand' | 'soft' | 'danger';
}

export function Card({ title, titleId, action, as: Tag = 'section', tone = 'default', className, children, ...rest }: CardProps) {
  const cls = ['card', tone !== 'default' && `card--${tone}`, className].filter(Boolean).join(' ');
  return (
    <Tag {...rest} className={cls} aria-labelledby={title && titleId ? titleId : rest['aria-labelledby']}>
      {(title || action) && (
        <div className="card__header">
          {title && (
            <h2 className="card__title" id={titleId}>
              {title}
            </h2>
          )}
          {action}
        </div>
      )}
      {children}
    </Tag>
  );
}
