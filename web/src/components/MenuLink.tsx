import { Link } from 'react-router';
import type { ReactNode } from 'react';
import type { MenuItem } from '../content/menu';
import { ExternalLink } from './ExternalLink';

interface Props {
  item: MenuItem;
  className?: string;
  onPick?: () => void;
  children?: ReactNode;
}

/** A menu entry: a client-side link inside the site, a new tab when openNewtab is set. */
export function MenuLink({ item, className, onPick, children }: Props) {
  const content = children ?? item.title;
  if (!item.url) return null;
  if (item.openNewtab) {
    return (
      <ExternalLink href={item.url} className={className} onClick={onPick}>
        {content}
      </ExternalLink>
    );
  }
  return (
    <Link to={item.url} className={className} onClick={onPick}>
      {content}
    </Link>
  );
}

/** Title, subtitle and picture of a product in the submenu. */
export function SubMenuEntry({ item }: { item: MenuItem }) {
  return (
    <>
      {item.image && <img src={item.image} width="40" height="40" alt="" />}
      <span className="submenu__text">
        <span className="submenu__title">{item.title}</span>
        {item.subTitle && <span className="submenu__subtitle">{item.subTitle}</span>}
      </span>
    </>
  );
}
