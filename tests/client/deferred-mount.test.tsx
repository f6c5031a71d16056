// @vitest-environment happy-dom
/**
 * The signed-in layout's deferred mount (app/deferred-mount.ts, decision 0026): mounted by a
 * synchronous update, it renders nothing (index.html's splash stays), then itself in a deferred
 * render that React slices; later renders show it at once.
 */
import fs from 'node:fs';
import path from 'node:path';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { useDeferredMount } from '../../src/client/app/deferred-mount.ts';

const ROOT = path.join(import.meta.dirname, '..', '..');
const actFlag = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };
let wasAct: boolean | undefined;

// Outside act(): the test sees what the browser sees between React's tasks.
beforeAll(() => {
  wasAct = actFlag.IS_REACT_ACT_ENVIRONMENT;
  actFlag.IS_REACT_ACT_ENVIRONMENT = false;
});
afterAll(() => {
  actFlag.IS_REACT_ACT_ENVIRONMENT = wasAct;
});

function Screen({ text }: { text: string }) {
  const mounted = useDeferredMount();
  return mounted ? <main>{text}</main> : null;
}

describe('useDeferredMount', () => {
  it('renders nothing in the synchronous mount, then the screen in a deferred render, and later renders at once', async () => {
    const container = document.createElement('div');
    document.body.append(container);
    const root = createRoot(container);
    flushSync(() => root.render(<Screen text="tableau de bord" />));
    expect(container.innerHTML).toBe('');
    await vi.waitFor(() => expect(container.querySelector('main')?.textContent).toBe('tableau de bord'));
    flushSync(() => root.render(<Screen text="accueil" />));
    expect(container.querySelector('main')?.textContent).toBe('accueil');
    flushSync(() => root.unmount());
    container.remove();
  });

  it('is what the signed-in layout waits for before rendering its header and screen', () => {
    const layout = fs.readFileSync(
      path.join(ROOT, 'src/client/routes/-components/authed-layout.tsx'),
      'utf8',
    );
    expect(layout).toMatch(/const mounted = useDeferredMount\(\);\s+if \(!user \|\| !mounted\) return null;/);
  });
});
