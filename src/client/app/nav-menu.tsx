/**
 * The navigation of the signed-in header, on every screen size (DESIGN.md §8: phone ≥ 360 px,
 * tablet, desktop). It exists because one row of links does not fit a phone: there, a "Menu"
 * button opens a sheet (react-aria Modal + Dialog: focus trapped, Escape and a click outside
 * close it) holding every entry the user may open, the language choice and sign-out; it closes
 * on navigation. Wider screens show the entries as a horizontal bar that wraps, never clips.
 *
 * The entries themselves (the `NAV` array of routes/-components/authed-layout.tsx, filtered by
 * the user's rights there) are the single source; this module only groups and shows them.
 * Which of the two presentations shows is decided by CSS (`.app-header` rules of styles.css,
 * "narrow" = max-width 640 px or max-height 500 px), so both are always rendered and the
 * hidden one is `display: none` (out of the accessibility tree).
 */
import { Link, useRouterState } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { Dialog, DialogTrigger } from 'react-aria-components/Dialog';
import { Heading } from 'react-aria-components/Heading';
import { Modal, ModalOverlay } from 'react-aria-components/Modal';
import { Popover } from 'react-aria-components/Popover';
import { FormattedMessage, useIntl } from 'react-intl';
import { signOut } from '../lib/session.ts';
import { Button } from '../ui/button.tsx';
import { LanguageChoice } from './language-choice.tsx';
import { FOLDED_NAV_GROUPS, groupNavEntries, type NavEntry, type NavGroup } from './nav-groups.ts';

export type { NavEntry } from './nav-groups.ts';

/** The wide-screen bar: every entry given, in one list that wraps; a thin rule between groups. */
export function NavBar({ entries }: { entries: readonly NavEntry[] }) {
  const intl = useIntl();
  return (
    <nav className="app-nav" aria-label={intl.formatMessage({ id: 'nav.main' })}>
      <ul className="app-nav__list">
        {groupNavEntries(entries).flatMap((g, gi) =>
          g.entries.map((n, i) => (
            <li key={String(n.to)} className={gi > 0 && i === 0 ? 'app-nav__group-start' : undefined}>
              <Link to={n.to} className="app-nav__link" activeProps={{ 'aria-current': 'page' }}>
                <FormattedMessage id={n.messageId} />
              </Link>
            </li>
          )),
        )}
      </ul>
    </nav>
  );
}

/**
 * A folded group of the header's first row: a button named after the group (marked when the current page is
 * one of its screens) opening a popover of its links; it closes on navigation, Escape or a click
 * outside.
 */
function FoldedGroup({ group, entries }: { group: NavGroup; entries: readonly NavEntry[] }) {
  const intl = useIntl();
  const [isOpen, setOpen] = useState(false);
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const current = entries.some((n) => pathname === n.to || pathname.startsWith(`${String(n.to)}/`));
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on each path change by design
  useEffect(() => {
    setOpen(false);
  }, [pathname]);
  return (
    <DialogTrigger isOpen={isOpen} onOpenChange={setOpen}>
      <Button variant="quiet" className={`app-nav__link app-nav__fold${current ? ' is-current' : ''}`}>
        <FormattedMessage id={`nav.group.${group}`} />
        <span aria-hidden="true"> ▾</span>
      </Button>
      <Popover className="app-nav__popover" placement="bottom start">
        <Dialog
          className="app-nav__fold-dialog"
          aria-label={intl.formatMessage({ id: `nav.group.${group}` })}
        >
          <ul className="app-nav__fold-list">
            {entries.map((n) => (
              <li key={String(n.to)}>
                <Link
                  to={n.to}
                  className="app-nav__fold-link"
                  activeProps={{ 'aria-current': 'page' }}
                  onClick={() => setOpen(false)}
                >
                  <FormattedMessage id={n.messageId} />
                </Link>
              </li>
            ))}
          </ul>
        </Dialog>
      </Popover>
    </DialogTrigger>
  );
}

/**
 * Wide screens: the header's first row, beside the sync badge and the language choice: the folded
 * groups (nav-groups.ts FOLDED_NAV_GROUPS: the steering screens, as one button opening their
 * links) and the settings entries (Administration…), so the bar of screens below stays on one row
 * on a tablet (issue #20 item 10). Phones show them all in the Menu sheet. Nothing when empty.
 */
export function NavTools({ entries }: { entries: readonly NavEntry[] }) {
  const intl = useIntl();
  if (entries.length === 0) return null;
  return (
    <nav className="app-tools" aria-label={intl.formatMessage({ id: 'nav.group.settings' })}>
      <ul className="app-tools__list">
        {groupNavEntries(entries).flatMap((g) =>
          FOLDED_NAV_GROUPS.includes(g.group)
            ? [
                <li key={g.group}>
                  <FoldedGroup group={g.group} entries={g.entries} />
                </li>,
              ]
            : g.entries.map((n) => (
                <li key={String(n.to)}>
                  <Link to={n.to} className="app-nav__link" activeProps={{ 'aria-current': 'page' }}>
                    <FormattedMessage id={n.messageId} />
                  </Link>
                </li>
              )),
        )}
      </ul>
    </nav>
  );
}

/**
 * The phone "Menu" button and its sheet: the allowed entries by group (current page marked with
 * `aria-current="page"`), then the language choice and sign-out. Closes on navigation (a link
 * pressed, or the path changed by back/forward), on Escape and on a click outside.
 */
export function NavMenu({ entries, login }: { entries: readonly NavEntry[]; login: string }) {
  const intl = useIntl();
  const [isOpen, setOpen] = useState(false);
  const pathname = useRouterState({ select: (s) => s.location.pathname });

  // Back/forward (or any navigation not started from the sheet) also closes it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on each path change by design
  useEffect(() => {
    setOpen(false);
  }, [pathname]);

  return (
    <DialogTrigger isOpen={isOpen} onOpenChange={setOpen}>
      <Button variant="quiet" className="app-menu__button">
        <MenuIcon />
        <span>
          <FormattedMessage id="nav.menu" />
        </span>
      </Button>
      <ModalOverlay className="app-menu__overlay" isDismissable>
        <Modal className="app-menu__sheet">
          <Dialog className="app-menu__dialog">
            {({ close }) => (
              <>
                <div className="app-menu__top">
                  <Heading slot="title" level={2} className="app-menu__title">
                    <FormattedMessage id="nav.menu" />
                  </Heading>
                  <Button
                    variant="quiet"
                    className="app-menu__close"
                    aria-label={intl.formatMessage({ id: 'nav.closeMenu' })}
                    onPress={close}
                  >
                    <CloseIcon />
                  </Button>
                </div>
                <nav className="app-menu__nav" aria-label={intl.formatMessage({ id: 'nav.main' })}>
                  {groupNavEntries(entries).map((g) => (
                    <section key={g.group} className="app-menu__group" aria-labelledby={headingId(g.group)}>
                      {g.group === 'main' ? null : (
                        <h3 className="app-menu__group-title" id={headingId(g.group)}>
                          <FormattedMessage id={`nav.group.${g.group}`} />
                        </h3>
                      )}
                      <ul className="app-menu__list">
                        {g.entries.map((n) => (
                          <li key={String(n.to)}>
                            <Link
                              to={n.to}
                              className="app-menu__link"
                              activeProps={{ 'aria-current': 'page' }}
                              onClick={close}
                            >
                              <FormattedMessage id={n.messageId} />
                            </Link>
                          </li>
                        ))}
                      </ul>
                    </section>
                  ))}
                </nav>
                <div className="app-menu__account">
                  <p className="app-menu__signed-in">
                    <FormattedMessage id="nav.signedInAs" values={{ login }} />
                  </p>
                  <LanguageChoice className="app-menu__languages" />
                  <Button className="app-menu__logout" onPress={() => void signOut('user')}>
                    <FormattedMessage id="nav.logout" />
                  </Button>
                </div>
              </>
            )}
          </Dialog>
        </Modal>
      </ModalOverlay>
    </DialogTrigger>
  );
}

/** The id of a group's heading in the sheet (the `main` group has none: its section is unnamed). */
function headingId(group: NavGroup): string | undefined {
  return group === 'main' ? undefined : `app-menu-group-${group}`;
}

function MenuIcon() {
  return (
    <svg
      className="app-menu__icon"
      viewBox="0 0 24 24"
      width="22"
      height="22"
      aria-hidden="true"
      focusable="false"
    >
      <path d="M3 6h18M3 12h18M3 18h18" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" />
    </svg>
  );
}

function CloseIcon() {
  return (
    <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
      <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" />
    </svg>
  );
}
