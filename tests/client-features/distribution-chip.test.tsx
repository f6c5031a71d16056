// @vitest-environment happy-dom
/**
 * The header's distribution chip (src/client/app/distribution-chip.tsx, issue #20 item 10): a
 * distribution named like the app ("Comptoir", in any case or spacing) shows no chip beside the
 * app's name; any other name shows it; no name shows nothing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import de from '../../i18n/de.json';
import fr from '../../i18n/fr.json';
import { DistributionChip } from '../../src/client/app/distribution-chip.tsx';
import { renderScreen, type Screen, unmountScreen } from './support.tsx';

let screen: Screen | undefined;
afterEach(() => {
  if (screen) unmountScreen(screen);
  screen = undefined;
});

const chip = () => screen?.container.querySelector('.app-header__client')?.textContent ?? null;

describe('the distribution chip in the header', () => {
  it.each(['Comptoir', ' comptoir ', 'COMPTOIR'])(
    'is not shown for a distribution named %j like the app',
    async (name) => {
      screen = await renderScreen(<DistributionChip name={name} className="app-header__client" />, 'fr', fr);
      expect(chip()).toBeNull();
    },
  );

  it('shows a distribution named otherwise, in every language', async () => {
    screen = await renderScreen(
      <DistributionChip name="Brasseries du Nord" className="app-header__client" />,
      'de',
      de,
    );
    expect(chip()).toBe('Brasseries du Nord');
  });

  it('shows nothing when the distribution has no name', async () => {
    screen = await renderScreen(<DistributionChip name={null} className="app-header__client" />, 'fr', fr);
    expect(screen.container.innerHTML).toBe('');
  });
});
