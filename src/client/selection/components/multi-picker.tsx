/**
 * A folding multi-choice list used by the site, terminal and seller pickers: the closed state shows
 * a one-line summary (useful on a phone), the open state a search field, a "select all shown"
 * checkbox and a keyboard- and touch-friendly list (react-aria ListBox, multiple selection), with
 * optional sections (one per site). Nothing chosen is a valid, meaningful state ("all") that the
 * caller's summary spells out.
 */
import { type ReactNode, useId, useMemo, useState } from 'react';
import { useIntl } from 'react-intl';
import { Button as AriaButton } from 'react-aria-components/Button';
import { Disclosure, DisclosurePanel, Heading } from 'react-aria-components/Disclosure';
import { Header, ListBox, ListBoxItem, ListBoxSection } from 'react-aria-components/ListBox';
import { Input, Label, SearchField } from 'react-aria-components/SearchField';
import type { Selection } from 'react-aria-components';
import { Checkbox } from '../../ui/checkbox.tsx';
import { Button } from '../../ui/button.tsx';
// Its own classes (sel-picker…): a screen that shows only this picker (/config/messages) loads
// them with it, not only after a screen of the selection panel did.
import './selection.css';

export interface PickerItem {
  id: string;
  label: string;
  /** Second line (site code, seller code…), also searched. */
  detail?: string;
}
export interface PickerSection {
  id: string;
  /** Section title (the site's name); omitted for a flat list. */
  title?: string;
  items: PickerItem[];
}

export interface MultiPickerProps {
  /** Field name ("Sites"). */
  label: string;
  /** What the current choice means ("All your sites (12)"). */
  summary: ReactNode;
  sections: readonly PickerSection[];
  selected: readonly string[];
  onChange: (ids: string[]) => void;
  /** Show the search field (long lists). */
  searchable?: boolean;
  /** Custom search (e.g. accent-insensitive over codes); default: label and detail contain the text. */
  filter?: (item: PickerItem, search: string) => boolean;
  /** Shown when there is nothing to choose from. */
  emptyText: ReactNode;
  defaultExpanded?: boolean;
  isDisabled?: boolean;
}

function defaultFilter(item: PickerItem, search: string): boolean {
  const fold = (t: string) =>
    t
      .normalize('NFD')
      .replace(/\p{Diacritic}/gu, '')
      .toLowerCase();
  const q = fold(search.trim());
  return fold(item.label).includes(q) || fold(item.detail ?? '').includes(q);
}

export function MultiPicker(props: MultiPickerProps) {
  const intl = useIntl();
  const [search, setSearch] = useState('');
  const headingId = useId();
  const filter = props.filter ?? defaultFilter;
  const shown = useMemo(
    () =>
      props.sections
        .map((s) => ({
          ...s,
          items: search.trim() === '' ? s.items : s.items.filter((i) => filter(i, search)),
        }))
        .filter((s) => s.items.length > 0),
    [props.sections, search, filter],
  );
  const shownIds = shown.flatMap((s) => s.items.map((i) => i.id));
  const selectedShown = shownIds.filter((id) => props.selected.includes(id));
  const allShown = shownIds.length > 0 && selectedShown.length === shownIds.length;
  const total = props.sections.reduce((n, s) => n + s.items.length, 0);

  const onSelectionChange = (keys: Selection) => {
    // The ListBox only knows the shown items: keep chosen ones hidden by the search.
    const hiddenChosen = props.selected.filter((id) => !shownIds.includes(id));
    const shownChosen = keys === 'all' ? shownIds : shownIds.filter((id) => keys.has(id));
    props.onChange([...hiddenChosen, ...shownChosen]);
  };
  const toggleAllShown = (on: boolean) => {
    const others = props.selected.filter((id) => !shownIds.includes(id));
    props.onChange(on ? [...others, ...shownIds] : others);
  };

  const item = (i: PickerItem) => (
    <ListBoxItem key={i.id} id={i.id} textValue={i.label} className="sel-option">
      {({ isSelected }) => (
        <>
          <span className={isSelected ? 'sel-check sel-check--on' : 'sel-check'} aria-hidden="true">
            {isSelected ? '✓' : ''}
          </span>
          <span className="sel-option__text">
            <span className="sel-option__label">{i.label}</span>
            {i.detail ? <span className="sel-option__detail">{i.detail}</span> : null}
          </span>
        </>
      )}
    </ListBoxItem>
  );

  return (
    <Disclosure className="sel-picker" defaultExpanded={props.defaultExpanded} isDisabled={props.isDisabled}>
      {({ isExpanded }) => (
        <>
          {/* Level 2: the pickers sit straight under the screen's h1 (axe heading-order). */}
          <Heading level={2} className="sel-picker__heading" id={headingId}>
            <AriaButton slot="trigger" className="sel-picker__trigger">
              <span className="sel-picker__label">{props.label}</span>
              <span className="sel-picker__summary">{props.summary}</span>
              <span
                className={isExpanded ? 'sel-chevron sel-chevron--open' : 'sel-chevron'}
                aria-hidden="true"
              >
                ▾
              </span>
            </AriaButton>
          </Heading>
          {/*
            The panel's content exists only while expanded: a collapsed panel is display: none (out of the
            accessibility tree and of find-in-page), and its listbox of every site, built through
            react-aria's collection, was most of the pickers' cost in each render of /home (decision
            0026). The search text lives above, so it survives folding.
          */}
          <DisclosurePanel className="sel-picker__panel">
            {!isExpanded ? null : total === 0 ? (
              <p className="sel-empty">{props.emptyText}</p>
            ) : (
              <>
                {props.searchable ? (
                  <SearchField className="sel-search" value={search} onChange={setSearch}>
                    <Label className="visually-hidden">
                      {intl.formatMessage({ id: 'selection.search' }, { label: props.label })}
                    </Label>
                    <Input
                      className="sel-search__input"
                      placeholder={intl.formatMessage({ id: 'selection.searchPlaceholder' })}
                    />
                  </SearchField>
                ) : null}
                <div className="sel-picker__tools">
                  <Checkbox
                    isSelected={allShown}
                    isIndeterminate={!allShown && selectedShown.length > 0}
                    onChange={toggleAllShown}
                    isDisabled={shownIds.length === 0}
                  >
                    {search.trim() === ''
                      ? intl.formatMessage({ id: 'selection.selectAll' })
                      : intl.formatMessage({ id: 'selection.selectAllShown' }, { count: shownIds.length })}
                  </Checkbox>
                  {props.selected.length > 0 ? (
                    <Button variant="quiet" onPress={() => props.onChange([])}>
                      {intl.formatMessage({ id: 'selection.clear' })}
                    </Button>
                  ) : null}
                </div>
                {shownIds.length === 0 ? (
                  <p className="sel-empty">{intl.formatMessage({ id: 'selection.noMatch' })}</p>
                ) : (
                  <ListBox
                    aria-labelledby={headingId}
                    className="sel-list"
                    selectionMode="multiple"
                    // Escape must not wipe a manager's careful choice of sites (react-aria clears by default).
                    escapeKeyBehavior="none"
                    selectedKeys={new Set(selectedShown)}
                    onSelectionChange={onSelectionChange}
                  >
                    {shown.map((s) =>
                      s.title ? (
                        <ListBoxSection key={s.id} id={s.id} className="sel-section">
                          <Header className="sel-section__title">{s.title}</Header>
                          {s.items.map(item)}
                        </ListBoxSection>
                      ) : (
                        s.items.map(item)
                      ),
                    )}
                  </ListBox>
                )}
              </>
            )}
          </DisclosurePanel>
        </>
      )}
    </Disclosure>
  );
}
