/** Tabs (react-aria-components): arrow keys move between tabs, each tab panel labelled by its tab. */
import type { ReactNode } from 'react';
import type { Key } from 'react-aria-components';
import { Tab, TabList, TabPanel, Tabs as AriaTabs } from 'react-aria-components/Tabs';

export interface TabItem {
  id: string;
  label: ReactNode;
  content: ReactNode;
}

export interface TabsProps {
  /** Accessible name of the tab list. */
  label: string;
  items: readonly TabItem[];
  selectedKey?: Key;
  onSelectionChange?: (key: Key) => void;
  className?: string;
}

export function Tabs({ label, items, selectedKey, onSelectionChange, className }: TabsProps) {
  return (
    <AriaTabs
      className={['ui-tabs', className].filter(Boolean).join(' ')}
      selectedKey={selectedKey}
      onSelectionChange={onSelectionChange}
    >
      <TabList aria-label={label} className="ui-tabs__list">
        {items.map((t) => (
          <Tab key={t.id} id={t.id} className="ui-tabs__tab">
            {t.label}
          </Tab>
        ))}
      </TabList>
      {items.map((t) => (
        <TabPanel key={t.id} id={t.id} className="ui-tabs__panel">
          {t.content}
        </TabPanel>
      ))}
    </AriaTabs>
  );
}
