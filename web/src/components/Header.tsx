import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, NavLink } from 'react-router';
import { MAIN_MENU, type MenuItem } from '../content/menu';
import { AnnouncementBanner } from './AnnouncementBanner';
import { ChevronIcon, ExaLogo, MenuIcon } from './Icons';
import { MenuLink, SubMenuEntry } from './MenuLink';
import { MobileMenu } from './MobileMenu';

interface HeaderProps {
  /** Only the home page shows the announcement banner. */
  showAnnouncement?: boolean;
  /** A page's own call to action in the header (the cloud page's 'Acessar meu EXA Cloud'). */
  action?: ReactNode;
}

function DesktopSubMenu({ item }: { item: MenuItem }) {
  const [open, setOpen] = useState(false);
  const holder = useRef<HTMLLIElement>(null);

  // Close on a click elsewhere or on Escape, as a visitor expects from a dropdown.
  useEffect(() => {
    if (!open) return;
    const onPointer = (event: MouseEvent) => {
      if (holder.current && !holder.current.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    document.addEventListener('mousedown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  return (
    <li className="desktop-nav__item" ref={holder}>
      <button
        type="button"
        className="desktop-nav__link desktop-nav__toggle"
        aria-expanded={open}
        aria-controls="submenu-produtos"
        onClick={() => setOpen((value) => !value)}
      >
        {item.title}
        <ChevronIcon open={open} />
      </button>
      {open && (
        <div id="submenu-produtos" className="submenu" data-testid="desktop-submenu">
          <ul>
            {item.subMenu?.map((entry) => (
              <li key={entry.title}>
                <MenuLink item={entry} className="submenu__link" onPick={() => setOpen(false)}>
                  <SubMenuEntry item={entry} />
                </MenuLink>
              </li>
            ))}
          </ul>
        </div>
      )}
    </li>
  );
}

export function Header({ showAnnouncement = false, action }: HeaderProps) {
  const [mobileOpen, setMobileOpen] = useState(false);

  return (
    <header className="site-header">
      {showAnnouncement && <AnnouncementBanner />}
      <div className="header-bar container">
        <Link to="/" className="header-logo" aria-label="EXA, página inicial">
          <ExaLogo />
        </Link>
        <nav className="desktop-nav" aria-label="Menu principal">
          <ul className="desktop-nav__list">
            {MAIN_MENU.map((item) =>
              item.subMenu ? (
                <DesktopSubMenu key={item.title} item={item} />
              ) : (
                <li key={item.title} className="desktop-nav__item">
                  <NavLink to={item.url ?? '/'} end className="desktop-nav__link">
                    {item.title}
                  </NavLink>
                </li>
              ),
            )}
          </ul>
        </nav>
        {action && <div className="header-action">{action}</div>}
        <button
          type="button"
          className="icon-button hamburger"
          aria-label="Abrir menu"
          aria-expanded={mobileOpen}
          aria-controls="menu-mobile"
          onClick={() => setMobileOpen(true)}
        >
          <MenuIcon size={28} />
        </button>
      </div>
      {mobileOpen && <MobileMenu onClose={() => setMobileOpen(false)} />}
    </header>
  );
}
